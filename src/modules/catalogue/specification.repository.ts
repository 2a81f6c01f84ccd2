import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/access/scope';
import { assertReachable, type BodyRef } from '../../common/access/tenant-policy';
import { ModuleRepository } from '../../database/repository';
import { AssetSpecification } from './catalogue.entities';

/**
 * The `asset_specifications` table, for what other modules ask of specifications (the check before
 * they write their link tables). The company's own specification records (CRUD) still go through
 * `CompanyRecords` (issue #24: next session). Runs in the open unit of work.
 */
@Injectable()
export class SpecificationRepository extends ModuleRepository {
  /** The references must be live specifications `scope` reaches, share-locked until the commit (422 on their fields otherwise). */
  assertReachable(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return assertReachable(this.locked, AssetSpecification, scope, refs);
  }
}
