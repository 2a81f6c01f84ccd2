import { TestApp } from './test-app';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The container calendar's tests (test/catalogue/container-calendar*.spec.ts): a refusal naming its days, and an order's live hold as stored. */
export function refusedOn(res: { status: number; body: Row }, dates: string[], specId: string): void {
  expect([res.status, res.body.code]).toEqual([409, 'NO_CONTAINER_AVAILABLE']);
  expect(res.body.details).toEqual({ asset_specification_id: specId, dates });
}

/** The order's live hold (`container_reservations`): its days and pinned asset; undefined once released. */
export async function holdOf(t: TestApp, orderId: string): Promise<{ starts_on: string; ends_on: string | null; asset_id: string | null } | undefined> {
  const rows = (await t.ds.query(`SELECT starts_on::text AS starts_on, ends_on::text AS ends_on, asset_id FROM container_reservations WHERE order_id = $1 AND released_at IS NULL`, [orderId])) as Row[];
  return rows[0] as { starts_on: string; ends_on: string | null; asset_id: string | null } | undefined;
}
