import type { FieldsPayload, NoPayload } from '../../common/outbox/event-catalogue';
import type { CompanyStatus } from './company.entity';

/** The companies module's events (src/common/outbox/event-catalogue.ts: declaration merging). */
declare module '../../common/outbox/event-catalogue' {
  interface EventCatalogue {
    /** A company user's own profile changed (company administration). */
    'user.updated': FieldsPayload;

    'company.created': { name: string };
    'company.updated': FieldsPayload;
    'company.settings_updated': FieldsPayload;
    'company.settings_reset': NoPayload;
    'company.documents_replaced': { count: number };
    'company.document_deleted': { document_id: string; name: string };
    /** Platform administration (README "Platform administration"): an administrator's changes of a company. */
    'company.activated': { from: CompanyStatus; to: CompanyStatus };
    'company.deactivated': { from: CompanyStatus; to: CompanyStatus };
    'company.platform_updated': FieldsPayload;
  }
}
