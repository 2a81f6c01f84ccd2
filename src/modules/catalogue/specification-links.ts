import { EntityManager } from 'typeorm';
import { Scope } from '../../common/access/scope';
import { assertReachable } from '../../common/access/tenant-policy';
import { AssetSpecification } from './catalogue.entities';

/**
 * A join table from an owner (a promotion, a truck type) to the asset specifications it applies to.
 *
 * @deprecated catalogue SQL writing another module's table (issue #24: link tables are written by their
 * owners). The owner module reads and replaces its own link rows in its repository, and asks the
 * catalogue only for the check: `await specs.assertLinkable(Scope.company(owner.companyId), specIds)`
 * (`AssetSpecificationsService#assertLinkable`, same 422 fields), then DELETE + INSERT of its rows; its
 * `render` becomes one read of its own link rows for the page.
 */
export class SpecificationLinks {
  constructor(
    private readonly table: string,
    private readonly ownerColumn: string,
  ) {}

  /** Renders owners with their linked specification ids (one query for the whole page). */
  async render<O extends { id: string }, D>(m: EntityManager, owners: O[], map: (owner: O, specIds: string[]) => D): Promise<D[]> {
    const ids = new Map<string, string[]>(owners.map((o) => [o.id, []]));
    if (owners.length) {
      const rows: { owner: string; spec: string }[] = await m.query(
        `SELECT ${this.ownerColumn} AS owner, asset_specification_id AS spec FROM ${this.table} WHERE ${this.ownerColumn} = ANY($1::uuid[]) ORDER BY asset_specification_id`,
        [[...ids.keys()]],
      );
      for (const r of rows) ids.get(r.owner)?.push(r.spec);
    }
    return owners.map((o) => map(o, ids.get(o.id)!));
  }

  /** Replaces the owner's set; the ids must be the company's live specifications (422 on `asset_specification_ids.<i>`). */
  async replace(m: EntityManager, owner: { id: string; companyId: string }, specIds: string[]): Promise<void> {
    await assertReachable(m, AssetSpecification, Scope.company(owner.companyId), specIds.map((id, i) => ({ field: `asset_specification_ids.${i}`, id })));
    await m.query(`DELETE FROM ${this.table} WHERE ${this.ownerColumn} = $1`, [owner.id]);
    if (specIds.length) await m.query(`INSERT INTO ${this.table} (${this.ownerColumn}, asset_specification_id) SELECT $1, unnest($2::uuid[])`, [owner.id, specIds]);
  }
}
