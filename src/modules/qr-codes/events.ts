export {};

/** The QR codes module's events (src/common/outbox/event-catalogue.ts: declaration merging). */
declare module '../../common/outbox/event-catalogue' {
  interface EventCatalogue {
    'qr_code.created': { qr_code_id: string };
  }
}
