import type { ModuleGroup } from '../../../common/module-group';
import { JobsModule } from '../../jobs';
import { UsersModule } from '../../users';
import { MailNotifications } from './mail-notifications';
import { MakeNotifications } from './notification-subscriber';
import { CompanyNotificationsController, CustomerNotificationsController, DriverNotificationsController } from './notifications.controller';
import { NotificationRepository } from './notification.repository';
import { NotificationsService } from './notifications.service';

/** Notifications made by event subscribers (issue #14): the company's, customers' and drivers' routes over one service. */
export const NOTIFICATIONS: ModuleGroup = {
  imports: [UsersModule, JobsModule],
  controllers: [CompanyNotificationsController, CustomerNotificationsController, DriverNotificationsController],
  providers: [NotificationRepository, NotificationsService, MakeNotifications, MailNotifications],
  exports: [],
};
