import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Reads of the catalogue for the reports module (layer 7): one aggregate statement each. */
@Injectable()
export class CatalogueReadModel {
  constructor(private readonly ds: DataSource) {}

  /**
   * Per live specification of the company: its assets and the days they were owned over [from, to]
   * (from the company's local date of creation, to the day before deletion; retired assets count while
   * they are kept). Assets per company are few (thousands), read by idx_assets_asset_specification_id.
   */
  async ownedDaysBySpecification(companyId: string, from: string, to: string, timezone: string): Promise<{ specificationId: string; name: string; assets: number; ownedDays: number }[]> {
    const rows = await this.ds.query<{ id: string; name: string; assets: number; owned_days: number }[]>(
      `SELECT s.id, s.name, count(a.id)::int AS assets,
              coalesce(sum(greatest(0, least($3::date, coalesce((a.deleted_at AT TIME ZONE $4)::date - 1, $3::date))
                                     - greatest($2::date, (a.created_at AT TIME ZONE $4)::date) + 1)) FILTER (WHERE a.id IS NOT NULL), 0)::int AS owned_days
         FROM asset_specifications s
         LEFT JOIN assets a ON a.asset_specification_id = s.id AND a.company_id = s.company_id
        WHERE s.company_id = $1 AND s.deleted_at IS NULL
        GROUP BY s.id, s.name
        ORDER BY s.name, s.id`,
      [companyId, from, to, timezone],
    );
    return rows.map((r) => ({ specificationId: r.id, name: r.name, assets: Number(r.assets), ownedDays: Number(r.owned_days) }));
  }

  /** Live assets per company (the companies report). */
  async assetCounts(companyIds: readonly string[]): Promise<Map<string, number>> {
    if (!companyIds.length) return new Map();
    const rows = await this.ds.query<{ company_id: string; n: number }[]>(
      `SELECT company_id, count(*)::int AS n FROM assets WHERE company_id = ANY($1) AND deleted_at IS NULL GROUP BY company_id`,
      [[...companyIds]],
    );
    return new Map(rows.map((r) => [r.company_id, Number(r.n)]));
  }
}
