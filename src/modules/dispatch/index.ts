/** What other modules may use of dispatch (never its entities). */
export { DispatchModule } from './dispatch.module';
