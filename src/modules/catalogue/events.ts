import type { LocationType } from './catalogue.entities';

/** The catalogue's events (src/common/outbox/event-catalogue.ts: declaration merging); its records' created/updated/deleted through CompanyRecords. */
declare module '../../common/outbox/event-catalogue' {
  interface RecordEventPrefixes {
    asset_category: true;
    asset_style: true;
    asset_specification: true;
    waste_type: true;
    asset: true;
  }
  interface EventCatalogue {
    'asset.status_changed': { from: string; to: string };
    'asset.location_updated': { lat: number; lng: number; location_type: LocationType; location_id: string };
    /** A job moved the asset (recorded for dispatch, in its transaction). */
    'asset.moved_by_job': { job_id: string; from: string; to: string; location_type: LocationType | null; location_id: string | null };
    'asset_specification.waste_type_added': { waste_type_id: string; price_override_amount: number | null };
    'asset_specification.waste_type_updated': { waste_type_id: string; price_override_amount: number | null };
    'asset_specification.waste_type_removed': { waste_type_id: string };
  }
}
