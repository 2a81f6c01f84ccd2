export {};

/** The promotions module's records (created/updated/deleted through CompanyRecords; src/common/outbox/event-catalogue.ts). */
declare module '../../common/outbox/event-catalogue' {
  interface RecordEventPrefixes {
    promotion: true;
  }
}
