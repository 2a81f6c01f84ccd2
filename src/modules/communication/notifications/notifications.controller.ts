import { Controller, Delete, Get, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../../common/access/access.decorator';
import type { AccessCode } from '../../../common/access/access-codes';
import { CurrentScope, Scope } from '../../../common/access/scope';
import { withMessage } from '../../../common/http/envelope';
import { ApiIdParam, IdParam } from '../../../common/http/id-param';
import { Endpoint } from '../../../common/http/openapi';
import { MarkedReadDto, NotificationDto, NotificationPageMetaDto, NotificationQuery } from './notification.dto';
import { NotificationsService } from './notifications.service';

const WHAT = 'Notifications are made from what happens (orders, jobs, payments, violations, leave, chats, plan limits): `docs/notifications.md` ("Notifications and live push") lists who is told what.';
const OWN = 'One of my notifications; anyone else\'s is 404.';

/**
 * The same four routes for each kind of caller: a controller class per prefix and access code, over one
 * service (a user reaches only their own notifications).
 */
function notificationsController(name: string, prefix: string, access: AccessCode, tag: string) {
  @ApiTags(tag)
  @Controller(prefix)
  class NotificationsController {
    constructor(readonly notifications: NotificationsService) {}

    @Get('get')
    @Access(access)
    @Endpoint({ summary: 'My notifications, newest first (`unread=true` for the unread ones); `meta.unread_count` counts the unread', description: WHAT, type: NotificationDto, list: true, meta: NotificationPageMetaDto, errors: [422] })
    list(@CurrentScope() scope: Scope, @Query() q: NotificationQuery) {
      return this.notifications.list(scope, q);
    }

    @Post('mark-all-read')
    @Access(access)
    @Endpoint({ summary: 'Mark all my unread notifications read', type: MarkedReadDto })
    readAll(@CurrentScope() scope: Scope) {
      return this.notifications.readAll(scope);
    }

    @Post(':id/read')
    @Access(access)
    @ApiIdParam('id', OWN)
    @Endpoint({ summary: 'Mark one of my notifications read', description: 'Reading a read notification keeps its first `read_at`.', type: NotificationDto, errors: [404] })
    read(@CurrentScope() scope: Scope, @IdParam('id') id: string) {
      return this.notifications.read(scope, id);
    }

    @Delete(':id')
    @Access(access)
    @ApiIdParam('id', OWN)
    @Endpoint({ summary: 'Delete one of my notifications', message: 'Notification deleted.', errors: [404] })
    async remove(@CurrentScope() scope: Scope, @IdParam('id') id: string) {
      await this.notifications.remove(scope, id);
      return withMessage(null, 'Notification deleted.');
    }
  }
  Object.defineProperty(NotificationsController, 'name', { value: name });
  return NotificationsController;
}

export const CompanyNotificationsController = notificationsController('CompanyNotificationsController', 'api/v1/notifications', 'CO', 'Notifications');
export const CustomerNotificationsController = notificationsController('CustomerNotificationsController', 'api/v1/customer/notifications', 'CU', 'Notifications (customer)');
export const DriverNotificationsController = notificationsController('DriverNotificationsController', 'api/v1/driver/notifications', 'DR', 'Notifications (driver)');
