import type { SqlApi } from '../../database/sql-api';

/** The catalogue's SQL functions (src/database/sql-api.ts; created by migrations/1764600000000-ModuleSqlApi.ts and 1764600002000-ModuleSqlApiMore.ts). Soft-deleted rows included: an order keeps showing what it was placed with. */
export const SQL_API: SqlApi = {
  catalogue_specification_name: { args: 'specification_id uuid', returns: 'text', doc: "The asset specification's name." },
  catalogue_waste_type_name: { args: 'waste_type_id uuid', returns: 'text', doc: "The waste type's name." },
  catalogue_specification_named: {
    args: 'specification_id uuid',
    returns: 'TABLE(name text)',
    doc: "The asset specification's name as a row, for lists and hot reads: `LEFT JOIN LATERAL catalogue_specification_named(o.asset_specification_id) ns ON true`, inlined by the planner.",
  },
  catalogue_waste_type_named: {
    args: 'waste_type_id uuid',
    returns: 'TABLE(name text)',
    doc: "The waste type's name as a row, for lists and hot reads: `LEFT JOIN LATERAL catalogue_waste_type_named(o.waste_type_id) nw ON true`, inlined by the planner.",
  },
  catalogue_owned_days: {
    args: 'company_id uuid, from_date date, to_date date, timezone text',
    returns: 'TABLE(id text, name text, assets integer, owned_days integer, ord integer)',
    doc: 'Per live specification of the company: its assets and the days they were owned over [from_date, to_date] (from the local date of creation in `timezone` to the day before deletion; retired assets count while kept); ord is the rank by name then id. Set-returning, inlined.',
  },
  catalogue_container_days: {
    args: 'company_id uuid, specification_id uuid, lot_id uuid, from_date date, to_date date, except_order_id uuid',
    returns: 'TABLE(day date, total integer, held integer)',
    doc: "The container calendar of a specification, one row per day of [from_date, to_date]: its live assets not in maintenance or retired (based at lot_id when given) and the live holds on the day (at lot_id when given; except_order_id's left out). A live hold whose end is before the company's date today (a late pickup: not completed, the container still out) counts as open-ended (migrations/1764800500000-LatePickups.ts). Read by catalogue's ContainerCalendarRepository.",
  },
  catalogue_container_busy: {
    args: 'company_id uuid, order_id uuid, specification_id uuid, from_date date, to_date date',
    returns: 'date[]',
    doc: "The days of [from_date, to_date] (to_date null: open-ended, to one day past the last day a hold of the specification changes) no unit of the specification is free for the order (its own hold left out), when the specification refuses (`check_availability`, or null and a live asset of it recorded); empty otherwise. No lock: a check before the write (a change request when asked); writes go through catalogue_hold_container.",
  },
  catalogue_free_assets: {
    args: 'company_id uuid, order_id uuid, specification_id uuid, from_date date, to_date date',
    returns: 'TABLE(asset_id uuid, asset_specification_id uuid, home_lot_id uuid, code text, status text)',
    doc: "The company's assets (of specification_id; null: all) free for order_id (null: none) over [from_date, to_date] (to_date null: open-ended): not in maintenance or retired, no other order's live hold pins it on one of those days (a late one, ended before today and not released, pins it on every day from its start), one out now only when another order's pin says when it is back. What catalogue_pin_container chooses from and dispatch's reads offer (ContainerCalendarRepository#freeAssets, #loadingLots, #dispatchDay).",
  },
  catalogue_hold_container: {
    args: 'company_id uuid, order_id uuid, specification_id uuid, lot_id uuid, from_date date, to_date date',
    returns: 'date[]',
    doc: "Sets the order's hold on one unit of the specification to [from_date, to_date] (to_date null: open-ended), under the specification's row lock. When the specification refuses (catalogue_container_busy), the days no unit is free (the order's own hold left out) are returned and nothing changes; an empty array: held. Placement calls it in its one statement (OrdersRepository#insertPlacement).",
  },
  catalogue_pin_container: {
    args: 'company_id uuid, order_id uuid, specification_id uuid, lot_id uuid, from_date date, to_date date, asset_id uuid',
    returns: 'json',
    doc: "catalogue_hold_container (skipped when the order's hold already covers exactly these days: a day overbooked before is settled by which order gets a free asset; 1764800700000-PinWhatIsHeld), then pins an asset on the order's hold: asset_id, or the first one no other hold pins on the order's days (based at lot_id first, then by code). {asset_id, from_status, busy}: asset_id null when none is free, busy the days no unit is.",
  },
};
