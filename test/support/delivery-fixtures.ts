import { MemberActor } from './actors';
import { approvedOrder, ApprovedOrder, assignOrder, DispatchWorld } from './dispatch-fixtures';
import { inDays } from './order-fixtures';
import { TestApp } from './test-app';

/**
 * Orders carried to `delivered` or `completed` through HTTP only, on a `dispatchWorld` whose company
 * takes same-day orders (`settings: { order_lead_time_days: 0 }`; its time zone is UTC): the order is
 * placed for today, approved, its job assigned to the world's driver and truck, and the driver (checked
 * in once with `checkIn`) starts it, adds the evidence it needs and completes it.
 *
 * ```ts
 * const w = await dispatchWorld(t, { settings: { order_lead_time_days: 0 }, assets: 3 });
 * await checkIn(t, w);
 * const delivered = await deliveredOrder(t, w);
 * const completed = await completedOrder(t, w);   // delivered, then picked up and weighed (no overage)
 * ```
 */
async function send(t: TestApp, token: string, method: 'post' | 'patch', path: string, body: unknown, status: number) {
  const res = await t.req(method, `/api/v1/${path}`, { token, body });
  if (res.status !== status) throw new Error(`${method.toUpperCase()} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** The world's driver checks in with the world's truck (once per world and day). */
export async function checkIn(t: TestApp, w: DispatchWorld): Promise<void> {
  await send(t, w.driver.token, 'post', 'driver/check-in', { lat: 40.0, lng: -89.0, truck_id: w.truckId }, 201);
}

/** The driver works one assigned job of theirs: start, the evidence it needs (a photo, or a station ticket), complete. */
async function work(t: TestApp, w: DispatchWorld, jobId: string, evidence: Record<string, unknown>): Promise<void> {
  await send(t, w.driver.token, 'post', `driver/jobs/${jobId}/start`, undefined, 200);
  await send(t, w.driver.token, 'post', `driver/jobs/${jobId}/evidence`, evidence, 201);
  await send(t, w.driver.token, 'post', `driver/jobs/${jobId}/complete`, undefined, 200);
}

/** An order delivered today (its rental running): placed by `customer` (default the world's), approved, delivered by the world's driver. */
export async function deliveredOrder(t: TestApp, w: DispatchWorld, extra: Record<string, unknown> = {}, customer: MemberActor = w.customer): Promise<ApprovedOrder> {
  const order = await approvedOrder(t, w, { delivery_date: inDays(0), ...extra }, customer);
  await deliverOrder(t, w, order);
  return order;
}

/** An approved order whose delivery is today: its delivery job assigned to the world's driver and truck (first free asset), the driver delivers it. */
export async function deliverOrder(t: TestApp, w: DispatchWorld, order: Pick<ApprovedOrder, 'id' | 'deliveryJobId'>): Promise<void> {
  await assignOrder(t, w, order.id);
  await work(t, w, order.deliveryJobId, { kind: 'photo', url: 'https://files.example.test/drop.jpg' });
}

/**
 * A delivered order whose pickup is today: the pickup assigned to the world's driver, weighed at the
 * world's station (`grossKg` − 8900 kg tare; default 1000 kg net, within the allowance): the order is
 * completed with its final bill (overage beyond 2000 kg net).
 */
export async function pickUpOrder(t: TestApp, w: DispatchWorld, order: Pick<ApprovedOrder, 'id' | 'pickupJobId'>, grossKg = 9900): Promise<void> {
  await assignOrder(t, w, order.id);
  await work(t, w, order.pickupJobId!, { kind: 'ticket', station_id: w.stationId, ticket_number: `T-${order.id.slice(0, 6)}`, gross_kg: grossKg, tare_kg: 8900 });
}

/** An order delivered and picked up today, weighed at the world's station within the allowance: completed with its final bill. */
export async function completedOrder(t: TestApp, w: DispatchWorld, extra: Record<string, unknown> = {}, customer: MemberActor = w.customer): Promise<ApprovedOrder> {
  const order = await deliveredOrder(t, w, { pickup_date: inDays(0), ...extra }, customer);
  await pickUpOrder(t, w, order);
  return order;
}
