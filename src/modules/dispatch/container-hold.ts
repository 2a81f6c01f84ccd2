import type { JobView } from '../jobs';
import type { OrderForJobs } from '../orders';

/** Job types whose date is an end of the order's hold on the container calendar (the container goes out, comes back). */
export const HOLD_MOVERS: readonly string[] = ['delivery', 'pickup'];
/** An order's hold: the first and last day its container is out (null: open-ended). */
export type HeldDays = { from: string; to: string | null };
const UNFINISHED: readonly string[] = ['unassigned', 'assigned', 'in_progress'];

/**
 * The days the order's container is out with these jobs of it (docs/orders-and-pricing.md "Container
 * calendar"): from the day it was delivered, else its first unfinished delivery's date (a swap before
 * delivery is that delivery, merged by route collapse; the order's delivery date without one), to the
 * date of its unfinished pickup added last (the order's pickup date without one; open-ended without
 * either). So an extra delivery never shortens the hold, and a pickup added for a date ends it then.
 */
export function heldDaysOf(order: Pick<OrderForJobs, 'deliveredOn' | 'deliveryDate' | 'pickupDate'>, jobs: readonly Pick<JobView, 'type' | 'status' | 'scheduledDate' | 'createdAt'>[]): HeldDays {
  let delivery: string | null = null;
  let pickup: Pick<JobView, 'scheduledDate' | 'createdAt'> | null = null;
  for (const j of jobs) {
    if (!UNFINISHED.includes(j.status)) continue;
    if ((j.type === 'delivery' || j.type === 'swap') && (delivery === null || j.scheduledDate < delivery)) delivery = j.scheduledDate;
    // The pickup added last (approval adds one with the delivery, at the same instant: then the later date).
    if (j.type === 'pickup' && (pickup === null || j.createdAt > pickup.createdAt || (+j.createdAt === +pickup.createdAt && j.scheduledDate > pickup.scheduledDate))) pickup = j;
  }
  return { from: order.deliveredOn ?? delivery ?? order.deliveryDate, to: pickup?.scheduledDate ?? order.pickupDate };
}

/** The 422 message on `date` of a delivery or pickup on `date` that would cross the other end of the hold `held`, or null. */
export function crossedEnd(type: string, date: string, held: HeldDays): string | null {
  if (type === 'pickup' && date < held.from) return `must not be before the delivery on ${held.from}`;
  if (type === 'delivery' && held.to !== null && date > held.to) return `must not be after the pickup on ${held.to}`;
  return null;
}
