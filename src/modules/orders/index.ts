/** What other modules may use of orders (never its entities). */
export { OrdersModule } from './orders.module';
export { OrderOperations, type OrderForJobs } from './order-operations';
export type { ChangeActor } from './order-lifecycle';
export { OrdersService } from './orders.service';
