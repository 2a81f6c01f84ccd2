import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../http/api-error';

/** The records other modules may still use, so that deleting one is 409 `IN_USE`. */
export const RECORD_KINDS = [
  'lot',
  'station',
  'asset',
  'asset_category',
  'asset_style',
  'asset_specification',
  'waste_type',
  'truck',
  'truck_type',
  'pricing_profile',
  'customer_address',
] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/**
 * Whether live rows of the contributing module's own tables use the record `id`. Runs in the
 * deleting transaction (`m`), so it must query through `m` only.
 */
export type InUseCheck = (m: EntityManager, id: string) => Promise<boolean>;

interface Contribution {
  /** The module whose tables the check reads (for diagnostics). */
  owner: string;
  /** What uses the record, in words ("a live job"). */
  what: string;
  check: InUseCheck;
}

/**
 * "Is this record still in use?" by dependency inversion: the module that owns a referencing table
 * registers a check for the kinds of record its rows point at (at module init, through DI), and the
 * module that deletes a record asks the registry. Neither knows the other, and no table or column is
 * looked up at run time: a check is plain code of the owning module, compiled with its entities.
 */
@Injectable()
export class InUseRegistry {
  private readonly checks = new Map<RecordKind, Contribution[]>();

  /** Adds a check for `kind`; `owner` is the contributing module, `what` names the referencing rows. */
  register(kind: RecordKind, owner: string, what: string, check: InUseCheck): void {
    const list = this.checks.get(kind) ?? [];
    if (list.some((c) => c.owner === owner && c.what === what)) throw new Error(`In-use check "${what}" of ${owner} for ${kind} is registered twice`);
    list.push({ owner, what, check });
    this.checks.set(kind, list);
  }

  /** Whether any contributed check says the record is in use (checks run one after another on `m`). */
  async isUsed(m: EntityManager, kind: RecordKind, id: string): Promise<boolean> {
    for (const c of this.checks.get(kind) ?? []) if (await c.check(m, id)) return true;
    return false;
  }

  /** 409 `IN_USE` ("<label> is in use and cannot be deleted.") while any contributed check says so. */
  async assertUnused(m: EntityManager, kind: RecordKind, id: string, label: string): Promise<void> {
    if (await this.isUsed(m, kind, id)) throw ApiError.inUse(label);
  }

  /** The registered checks of a kind, as `owner: what` (diagnostics and tests). */
  contributions(kind: RecordKind): string[] {
    return (this.checks.get(kind) ?? []).map((c) => `${c.owner}: ${c.what}`);
  }
}
