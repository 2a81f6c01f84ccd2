import type { ModuleGroup } from '../../../common/module-group';
import { ContactController, ContactService } from './contact.controller';

/** The contact form (issue #14): kept and mailed to the platform. */
export const CONTACT: ModuleGroup = { imports: [], controllers: [ContactController], providers: [ContactService], exports: [] };
