export {};

/** The fleet's events (src/common/outbox/event-catalogue.ts: declaration merging); its records' created/updated/deleted through CompanyRecords. */
declare module '../../common/outbox/event-catalogue' {
  interface RecordEventPrefixes {
    truck_type: true;
    truck: true;
  }
  interface EventCatalogue {
    'truck.location_updated': { lat: number; lng: number };
  }
}
