import { Injectable } from '@nestjs/common';
import { AssetRepository } from './asset.repository';

/** Reads of the catalogue for the reports module (layer 7): one aggregate statement each. */
@Injectable()
export class CatalogueReadModel {
  constructor(private readonly assets: AssetRepository) {}

  /** Live assets per company (the companies report). */
  async assetCounts(companyIds: readonly string[]): Promise<Map<string, number>> {
    if (!companyIds.length) return new Map();
    const rows = await this.assets.countsByCompany(companyIds);
    return new Map(rows.map((r) => [r.company_id, Number(r.n)]));
  }
}
