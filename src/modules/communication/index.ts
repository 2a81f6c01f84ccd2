/** What other modules may use of communication (layer 7: only the app itself). */
export { CommunicationModule } from './communication.module';
