/** What other modules may use of dispatch (never its entities). */
export { DispatchModule } from './dispatch.module';
export { DriverLeaveCheck, type DriverLeaveSource } from './assignment-leave-check';
