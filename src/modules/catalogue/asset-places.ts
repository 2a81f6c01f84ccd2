import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/access/scope';
import type { BodyRef } from '../../common/access/tenant-policy';
import type { LocationType } from './catalogue.entities';

/**
 * Checks body references to places of one kind: they must be the company's live rows (share-locked
 * until the commit), else 422 `not found` on their fields. Plain code of the module owning the rows;
 * it runs in the caller's unit of work.
 */
export type PlaceCheck = (scope: Scope, refs: readonly BodyRef[]) => Promise<void>;

/** The position of a place of the company (null when it has none); only called after its check passed. */
export type PlacePosition = (scope: Scope, id: string) => Promise<{ latitude: number | null; longitude: number | null }>;

/**
 * Where an asset can be (its home lot, its current location): lots and stations (sites), trucks
 * (fleet), customer addresses (customers). Those modules own the rows and use catalogue, so catalogue
 * cannot use them: by dependency inversion, each registers the check of its own kind here (at module
 * init, through DI, with its service's `assertOwned`), and catalogue asks the registry.
 */
@Injectable()
export class AssetPlaces {
  private readonly checks = new Map<LocationType, { owner: string; check: PlaceCheck; position?: PlacePosition }>();

  /** Registers the check (and, where the kind has one, the position) for `type`; `owner` is the module owning the rows (for diagnostics). */
  register(type: LocationType, owner: string, check: PlaceCheck, position?: PlacePosition): void {
    const known = this.checks.get(type);
    if (known) throw new Error(`Asset place "${type}" is registered twice (${known.owner}, ${owner})`);
    this.checks.set(type, { owner, check, position });
  }

  /** The place's position after checking it is the scope's company's live row (422 on `field` otherwise). */
  async positionOf(scope: Scope, type: LocationType, id: string, field: string): Promise<{ latitude: number | null; longitude: number | null }> {
    await this.assertOwned(scope, type, [{ field, id }]);
    const position = this.checks.get(type)?.position;
    if (!position) throw new Error(`Asset place "${type}" has no registered position`);
    return position(scope, id);
  }

  /** The references to places of `type` must be the scope's company's live rows (422 `not found` on their fields otherwise). */
  assertOwned(scope: Scope, type: LocationType, refs: readonly BodyRef[]): Promise<void> {
    if (!refs.some((r) => r.id)) return Promise.resolve();
    const place = this.checks.get(type);
    // Fail closed: an unchecked reference must never be stored.
    if (!place) throw new Error(`No module registered asset place "${type}": import its module into the application`);
    return place.check(scope, refs);
  }
}
