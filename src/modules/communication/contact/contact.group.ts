import type { ModuleGroup } from '../../../common/module-group';
import { UsersModule } from '../../users';
import { ContactMessageRepository } from './contact-message.repository';
import { ContactController, ContactService, MailContactMessage } from './contact.controller';

/** The contact form (issue #14): kept, and mailed to the platform by a relay subscriber. */
export const CONTACT: ModuleGroup = { imports: [UsersModule], controllers: [ContactController], providers: [ContactMessageRepository, ContactService, MailContactMessage], exports: [] };
