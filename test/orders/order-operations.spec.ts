import { Scope } from '../../src/common/access/scope';
import { ApiError } from '../../src/common/http/api-error';
import type { Order } from '../../src/modules/orders/order.entity';
import { OrderOperations } from '../../src/modules/orders/order-operations';

/**
 * `OrderOperations` without a database (its collaborators faked): a driver's scope reaches only the
 * orders of their jobs (never the whole company), and an order `lock` handed out in a unit of work is
 * passed on to the calls that follow (not locked and read again).
 */
describe('OrderOperations: driver reach and the locked row passed on', () => {
  const COMPANY = '00000000-0000-4000-8000-0000000000c0';
  const ORDER = '00000000-0000-4000-8000-000000000001';
  const DRIVER = '00000000-0000-4000-8000-0000000000d0';

  /** A driver's scope (Scope has no public factory for one: built as the actor's). */
  const driverScope = () => Scope.of({ kind: 'user', type: 'driver', id: DRIVER, companyId: COMPANY, companyTimezone: null } as never);

  function setup(o: { reachesOrder?: boolean; active?: boolean } = {}) {
    const unit = { name: 'the open unit' };
    const row = (): Order => ({ id: ORDER, companyId: COMPANY, customerId: 'c', number: 7, status: 'approved', terms: {}, deliveryDate: '2026-12-01', pickupDate: null, deliveredOn: null } as unknown as Order);
    const lifecycle = {
      lock: jest.fn(async (_scope: Scope, _id: string) => row()),
      move: jest.fn(async (order: Order, to: Order['status']) => {
        order.status = to;
      }),
    };
    const jobs = { reachesOrder: jest.fn(async () => o.reachesOrder ?? false) };
    const uow = { active: o.active ?? true, manager: unit };
    const ops = new OrderOperations(lifecycle as never, {} as never, jobs as never, {} as never, {} as never, {} as never, uow as never);
    return { ops, lifecycle, jobs, uow };
  }

  it('refuses a driver an order without a job of theirs on it (404), without locking it', async () => {
    const { ops, lifecycle, jobs } = setup({ reachesOrder: false });
    await expect(ops.lock(driverScope(), ORDER)).rejects.toMatchObject({ status: 404 });
    await expect(ops.lock(driverScope(), ORDER)).rejects.toBeInstanceOf(ApiError);
    expect(jobs.reachesOrder).toHaveBeenCalled();
    expect(lifecycle.lock).not.toHaveBeenCalled();
  });

  it('locks for a driver with a job on the order: asked of the jobs, or proven by the job the caller found', async () => {
    const { ops, lifecycle, jobs } = setup({ reachesOrder: true });
    await ops.lock(driverScope(), ORDER);
    expect(jobs.reachesOrder).toHaveBeenCalledTimes(1);
    await ops.lock(driverScope(), ORDER, { orderId: ORDER, driverId: DRIVER });
    expect(jobs.reachesOrder).toHaveBeenCalledTimes(1);
    expect(lifecycle.lock.mock.calls.map((c) => c[0].kind)).toEqual(['company', 'company']);
    await expect(ops.lock(driverScope(), ORDER, { orderId: ORDER, driverId: 'someone else' })).rejects.toMatchObject({ status: 404 });
  });

  it('passes the locked row on: a status move after lock neither locks nor reads the order again', async () => {
    const { ops, lifecycle } = setup();
    const scope = Scope.company(COMPANY);
    const order = await ops.lock(scope, ORDER);
    await ops.scheduled(scope, order, 'system');
    expect(lifecycle.lock).toHaveBeenCalledTimes(1);
    expect(lifecycle.move).toHaveBeenCalledWith(expect.objectContaining({ id: ORDER, status: 'scheduled' }), 'scheduled', 'system');
    // By id (or a copy without the row), the order is locked again, and it is the same row: the earlier one follows.
    await ops.scheduled(scope, ORDER, 'system');
    await ops.scheduled(scope, { ...order }, 'system');
    expect(lifecycle.lock).toHaveBeenCalledTimes(3);
  });

  it('locks again once the unit that locked the row is over', async () => {
    const { ops, lifecycle, uow } = setup();
    const scope = Scope.company(COMPANY);
    const order = await ops.lock(scope, ORDER);
    uow.manager = { name: 'another unit' };
    await ops.scheduled(scope, order, 'system');
    expect(lifecycle.lock).toHaveBeenCalledTimes(2);
  });

  it("locks for system work with the company's scope (Scope.company)", async () => {
    const { ops, lifecycle } = setup();
    const order = await ops.lock(Scope.company(COMPANY), ORDER);
    expect(order).toMatchObject({ id: ORDER, companyId: COMPANY, number: 7 });
    expect(lifecycle.lock).toHaveBeenCalledWith(expect.objectContaining({ kind: 'company', companyId: COMPANY }), ORDER);
  });
});
