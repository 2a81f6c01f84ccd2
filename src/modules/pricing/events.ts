export {};

/** The pricing module's records (created/updated/deleted through CompanyRecords; src/common/outbox/event-catalogue.ts). */
declare module '../../common/outbox/event-catalogue' {
  interface RecordEventPrefixes {
    tax: true;
    payment_term: true;
    policy: true;
    pricing_profile: true;
  }
}
