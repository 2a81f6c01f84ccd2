import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { assertReachable, type BodyRef } from '../../common/access/tenant-policy';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { AssetSpecification } from './catalogue.entities';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);

/**
 * The `asset_specifications` table, for what other modules ask of specifications (the check before
 * they write their link tables). The company's own specification records (CRUD) still go through
 * `CompanyRecords` (issue #24: next session). Runs in the open unit of work.
 */
@Injectable()
export class SpecificationRepository extends ModuleRepository {
  /** The references must be live specifications `scope` reaches, share-locked until the commit (422 on their fields otherwise). */
  @GenerateSql({ params: [SAMPLE_SCOPE, [{ field: 'asset_specification_ids.0', id: SQL_SAMPLE.id }]] })
  assertReachable(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return assertReachable(this.locked, AssetSpecification, scope, refs);
  }
}
