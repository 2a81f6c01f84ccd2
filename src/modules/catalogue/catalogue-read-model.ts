import { Injectable } from '@nestjs/common';
import type { PlatformReach } from '../../common/access/tenant-policy';
import { AssetRepository } from './asset.repository';

/** Reads of the catalogue for the reports module (layer 7): one aggregate statement each. */
@Injectable()
export class CatalogueReadModel {
  constructor(private readonly assets: AssetRepository) {}

  /** Live assets per company among `companyIds` that the administrator's `reach` covers (the companies report). */
  async assetCounts(reach: PlatformReach, companyIds: readonly string[]): Promise<Map<string, number>> {
    if (!companyIds.length) return new Map();
    const rows = await this.assets.countsByCompany(reach, companyIds);
    return new Map(rows.map((r) => [r.company_id, Number(r.n)]));
  }
}
