import { Injectable } from '@nestjs/common';
import { AssetRepository } from './asset.repository';

/** Reads of the catalogue for the reports module (layer 7): one aggregate statement each. */
@Injectable()
export class CatalogueReadModel {
  constructor(private readonly assets: AssetRepository) {}

  /**
   * The SQL of per live specification of the company: its assets and the days they were owned over
   * [from, to] (from the company's local date of creation, to the day before deletion; retired assets
   * count while they are kept), as columns id, name, assets, owned_days, and ord (the rank by name then
   * id), for a report that reads it in its own statement; the arguments are SQL (parameters). Assets
   * per company are few (thousands), read by idx_assets_asset_specification_id.
   * @deprecated SQL naming the catalogue's tables in another module's statement (issue #24): reports should ask a typed read of the owned days per specification instead (to be added with reports' conversion).
   */
  static ownedDaysSql(companyId: string, from: string, to: string, timezone: string): string {
    return `SELECT s.id::text AS id, s.name, count(a.id)::int AS assets,
              coalesce(sum(greatest(0, least(${to}::date, coalesce((a.deleted_at AT TIME ZONE ${timezone}::text)::date - 1, ${to}::date))
                                     - greatest(${from}::date, (a.created_at AT TIME ZONE ${timezone}::text)::date) + 1)) FILTER (WHERE a.id IS NOT NULL), 0)::int AS owned_days,
              (row_number() OVER (ORDER BY s.name, s.id))::int AS ord
         FROM asset_specifications s
         LEFT JOIN assets a ON a.asset_specification_id = s.id AND a.company_id = s.company_id
        WHERE s.company_id = ${companyId}::uuid AND s.deleted_at IS NULL
        GROUP BY s.id, s.name`;
  }

  /** Live assets per company (the companies report). */
  async assetCounts(companyIds: readonly string[]): Promise<Map<string, number>> {
    if (!companyIds.length) return new Map();
    const rows = await this.assets.countsByCompany(companyIds);
    return new Map(rows.map((r) => [r.company_id, Number(r.n)]));
  }
}
