/** What other modules may use of dispatch (never its entities). */
export { DispatchModule } from './dispatch.module';
export { DriverLeaveCheck, type DriverLeaveSource } from './assignment-leave-check';
/** Reads for the reports module (rollups of completed jobs). */
export { DispatchReadModel, type CompletedJobFacts } from './dispatch-read-model';
