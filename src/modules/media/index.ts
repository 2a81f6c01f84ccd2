/** What other modules may use of media (never its entity). */
export { MediaModule } from './media.module';
export { MediaService } from './media.service';
