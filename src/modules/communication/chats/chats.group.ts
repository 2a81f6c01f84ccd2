import type { ModuleGroup } from '../../../common/module-group';
import { JobsModule } from '../../jobs';
import { MediaModule } from '../../media';
import { OrdersModule } from '../../orders';
import { UsersModule } from '../../users';
import { ChatsController, CompanyChatsController, CustomerChatsController, DriverChatsController } from './chats.controller';
import { ChatRepository } from './chat.repository';
import { ChatsService } from './chats.service';

/** Chats (issue #14): one per order between the company, the customer and the order's drivers. */
export const CHATS: ModuleGroup = {
  imports: [OrdersModule, JobsModule, MediaModule, UsersModule],
  controllers: [CompanyChatsController, CustomerChatsController, DriverChatsController, ChatsController],
  providers: [ChatRepository, ChatsService],
  exports: [],
};
