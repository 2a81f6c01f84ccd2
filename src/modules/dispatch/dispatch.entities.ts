import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';
import { Tenant } from '../../common/access/tenant-policy';

export const EVIDENCE_KINDS = ['photo', 'signature', 'qr_scan', 'ticket'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];
export const ISSUE_TYPES = ['no_access', 'blocked', 'overloaded', 'contamination', 'prohibited_items', 'damage', 'safety', 'not_ready', 'other'] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];
export const ISSUE_STATUSES = ['open', 'resolved'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

/** What a driver recorded on a job: a photo or signature (media id or URL), a scanned QR code, a ticket photo. */
@Tenant({ driver: 'driverId', customer: false })
@Entity('job_evidence')
@Index('idx_job_evidence_job', ['jobId', 'createdAt'])
@Check('job_evidence_kind_check', `kind IN ('photo', 'signature', 'qr_scan', 'ticket')`)
@Check('job_evidence_lat_check', `lat BETWEEN -90 AND 90`)
@Check('job_evidence_lng_check', `lng BETWEEN -180 AND 180`)
export class JobEvidence extends BaseEntity {
  @Index('idx_job_evidence_company') @ForeignKey('companies', { name: 'job_evidence_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @ForeignKey('jobs', { name: 'job_evidence_job_id_fkey', onDelete: 'CASCADE' }) @Column({ type: 'uuid' }) jobId: string;
  @ForeignKey('drivers', { name: 'job_evidence_driver_id_fkey' }) @Column({ type: 'uuid' }) driverId: string;
  @Column({ type: 'text' }) kind: EvidenceKind;
  @Index('idx_job_evidence_media', { where: 'media_id IS NOT NULL' })
  @ForeignKey('media', { name: 'job_evidence_media_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  mediaId: string | null;
  @Column({ type: 'text', nullable: true }) url: string | null;
  /** A scanned QR code's value (kind qr_scan). */
  @Column({ type: 'text', nullable: true }) code: string | null;
  @Column({ type: 'text', nullable: true }) note: string | null;
  @Column({ type: 'double precision', nullable: true }) lat: number | null;
  @Column({ type: 'double precision', nullable: true }) lng: number | null;
}

/** A problem a driver reported on a job; a blocking one stops completion until the company resolves it. */
@Tenant({ driver: 'driverId', customer: false })
@Entity('job_issues')
@Index('idx_job_issues_company_created', ['companyId', 'createdAt', 'id'])
@Index('idx_job_issues_company_status_created', ['companyId', 'status', 'createdAt', 'id'])
@Index('idx_job_issues_company_blocking_created', ['companyId', 'blocking', 'createdAt', 'id'])
@Index('idx_job_issues_job', ['jobId', 'status'])
@Check('job_issues_type_check', `type IN ('no_access', 'blocked', 'overloaded', 'contamination', 'prohibited_items', 'damage', 'safety', 'not_ready', 'other')`)
@Check('job_issues_status_check', `status IN ('open', 'resolved')`)
export class JobIssue extends BaseEntity {
  @ForeignKey('companies', { name: 'job_issues_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @ForeignKey('jobs', { name: 'job_issues_job_id_fkey', onDelete: 'CASCADE' }) @Column({ type: 'uuid' }) jobId: string;
  @Index('idx_job_issues_driver') @ForeignKey('drivers', { name: 'job_issues_driver_id_fkey' }) @Column({ type: 'uuid' }) driverId: string;
  @Column({ type: 'text' }) type: IssueType;
  @Column({ type: 'boolean', default: false }) blocking: boolean;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ type: 'text', default: 'open' }) status: IssueStatus;
  @Column({ type: 'text', nullable: true }) resolutionNote: string | null;
  @Column({ type: 'timestamptz', nullable: true }) resolvedAt: Date | null;
  @Column({ type: 'uuid', nullable: true }) resolvedBy: string | null;
}

/** The weighbridge ticket of a job that dumped: station, number, gross and tare; net = gross − tare > 0. One per job. */
@Tenant({ driver: 'driverId', customer: false })
@Entity('station_tickets')
@Unique('station_tickets_job_id_key', ['jobId'])
@Check('station_tickets_gross_kg_check', `gross_kg > 0`)
@Check('station_tickets_tare_kg_check', `tare_kg >= 0`)
@Check('station_tickets_net_kg_check', `net_kg = gross_kg - tare_kg AND net_kg > 0`)
export class StationTicket extends BaseEntity {
  @Index('idx_station_tickets_company') @ForeignKey('companies', { name: 'station_tickets_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @ForeignKey('jobs', { name: 'station_tickets_job_id_fkey', onDelete: 'CASCADE' }) @Column({ type: 'uuid' }) jobId: string;
  @Index('idx_station_tickets_station') @ForeignKey('stations', { name: 'station_tickets_station_id_fkey' }) @Column({ type: 'uuid' }) stationId: string;
  @Index('idx_station_tickets_driver') @ForeignKey('drivers', { name: 'station_tickets_driver_id_fkey' }) @Column({ type: 'uuid' }) driverId: string;
  @Column({ type: 'text' }) ticketNumber: string;
  @Column({ type: 'int' }) grossKg: number;
  @Column({ type: 'int' }) tareKg: number;
  @Column({ type: 'int' }) netKg: number;
  @Column({ type: 'timestamptz' }) weighedAt: Date;
}

/** A location point a driver sent for a job in progress. */
@Tenant({ driver: 'driverId', customer: false })
@Entity('job_locations')
@Index('idx_job_locations_job', ['jobId', 'recordedAt'])
@Index('idx_job_locations_driver', ['driverId', 'createdAt'])
@Check('job_locations_lat_check', `lat BETWEEN -90 AND 90`)
@Check('job_locations_lng_check', `lng BETWEEN -180 AND 180`)
@Check('job_locations_accuracy_m_check', `accuracy_m >= 0`)
@Check('job_locations_heading_check', `heading >= 0 AND heading < 360`)
@Check('job_locations_speed_mps_check', `speed_mps >= 0`)
export class JobLocation {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Index('idx_job_locations_company') @ForeignKey('companies', { name: 'job_locations_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @ForeignKey('jobs', { name: 'job_locations_job_id_fkey', onDelete: 'CASCADE' }) @Column({ type: 'uuid' }) jobId: string;
  @ForeignKey('drivers', { name: 'job_locations_driver_id_fkey' }) @Column({ type: 'uuid' }) driverId: string;
  @Column({ type: 'double precision' }) lat: number;
  @Column({ type: 'double precision' }) lng: number;
  @Column({ type: 'double precision', nullable: true }) accuracyM: number | null;
  @Column({ type: 'double precision', nullable: true }) heading: number | null;
  @Column({ type: 'double precision', nullable: true }) speedMps: number | null;
  @Column({ type: 'timestamptz' }) recordedAt: Date;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
