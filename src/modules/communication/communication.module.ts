import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module } from '@nestjs/common';
import { composeModule } from '../../common/module-group';
import { CHATS } from './chats/chats.group';
import { CONTACT } from './contact/contact.group';
import { NOTIFICATIONS } from './notifications/notifications.group';
import { PUSH } from './push/push.group';

/**
 * Communication (layer 7, issue #14): chats, notifications (event subscribers on the relay), the contact
 * form and live push to the apps. Each part lists its controllers and providers in its group file.
 */
@Module(composeModule(CHATS, NOTIFICATIONS, PUSH, CONTACT))
export class CommunicationModule {}
