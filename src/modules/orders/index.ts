/** What other modules may use of orders (never its entities). */
export { OrdersModule } from './orders.module';
export { OrderOperations, type OrderForJobs } from './order-operations';
/** An order as OrderOperations' Scope forms name it (its id, or the locked row `lock`/`lockForPayment` handed out: passed on), and a driver's reach of it. */
export type { DriverReach, OrderRef, ServiceFeeKind } from './order-operations';
export type { AssignableOrder, AssignableQuery, DuesQuery, DuesTotals, OrderBalance, OrderDue, OverdueOrder } from './order-operations';
export type { ChangeActor } from './order-lifecycle';
export { OrdersService } from './orders.service';
/** Response shapes dispatch's driver routes reuse (the driver's view of an order, the address snapshot). */
export { AddressSnapshotDto, OrderDetailsDto, orderNumber } from './orders.dto';
/** Reads for the reports module (dashboards, rollups). */
export { OrdersReadModel, type OrderFacts, type OrderSummaryRow } from './orders-read-model';
export { CompanyOrderQuery, OrderDto, OrderFullDto } from './orders.dto';
