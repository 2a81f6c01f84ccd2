import type { ModuleGroup } from '../../../common/module-group';
import { UsersModule } from '../../users';
import { ContactController, ContactService, MailContactMessage } from './contact.controller';

/** The contact form (issue #14): kept, and mailed to the platform by a relay subscriber. */
export const CONTACT: ModuleGroup = { imports: [UsersModule], controllers: [ContactController], providers: [ContactService, MailContactMessage], exports: [] };
