/**
 * The test price book's item for a specification (order fixtures and the crash test): `base` for 7
 * days / 2000 kg, extra day 1500, overage 9000 per tonne, swap 12000, dump-return 14000, relocation
 * 8000, wasted trip 10000 (minor units).
 */
export const priceBookItem = (specId: string, base: number) => ({
  asset_specification_id: specId,
  base_price_amount: base,
  included_days: 7,
  included_weight_kg: 2000,
  extra_day_amount: 1500,
  overage_per_tonne_amount: 9000,
  swap_fee_amount: 12000,
  dump_return_fee_amount: 14000,
  relocation_fee_amount: 8000,
  wasted_trip_fee_amount: 10000,
});
