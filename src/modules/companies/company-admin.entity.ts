import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';
import { Tenant } from '../../common/access/tenant-policy';

/** A document the company keeps on file (licence, insurance certificate, permit…). */
@Tenant({ customer: false, driver: false })
@Entity('company_documents')
export class CompanyDocument extends BaseEntity {
  @Index('idx_company_documents_company_id')
  @ForeignKey('companies', { name: 'company_documents_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  type: string;

  @Column({ type: 'text' })
  url: string;

  /** YYYY-MM-DD */
  @Column({ type: 'date', nullable: true })
  expiresOn: string | null;
}

/** Where money paid above an order's bill goes back (issue #22; docs/payments-provider-faults.md). */
export const REFUND_EXCESS_TO = ['customer', 'wallet', 'instrument'] as const;
export type RefundExcessTo = (typeof REFUND_EXCESS_TO)[number];

/**
 * The company's settings, one row per company (keyed by company_id), created on first write; until
 * then the defaults apply. timezone and currency mirror the company's own columns.
 */
@Tenant({ customer: false, driver: false })
@Entity('company_settings')
@Check('company_settings_order_lead_time_days_check', `order_lead_time_days >= 0`)
@Check('company_settings_free_cancellation_hours_check', `free_cancellation_hours >= 0`)
@Check('company_settings_cancellation_fee_amount_check', `cancellation_fee_amount >= 0`)
@Check('company_settings_demerit_warning_threshold_check', `demerit_warning_threshold >= 0`)
@Check('company_settings_demerit_block_threshold_check', `demerit_block_threshold >= 0`)
@Check('company_settings_demerit_window_days_check', `demerit_window_days > 0`)
@Check('company_settings_annual_leave_allowance_days_check', `annual_leave_allowance_days >= 0`)
@Check('company_settings_sick_leave_allowance_days_check', `sick_leave_allowance_days >= 0`)
@Check('company_settings_unpaid_leave_allowance_days_check', `unpaid_leave_allowance_days >= 0`)
@Check('company_settings_other_leave_allowance_days_check', `other_leave_allowance_days >= 0`)
@Check('company_settings_refund_excess_to_check', `refund_excess_to IN ('customer', 'wallet', 'instrument')`)
@Check('company_settings_shift_start_time_check', `shift_start_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`)
@Check('company_settings_shift_minutes_check', `shift_minutes BETWEEN 30 AND 1440`)
@Check('company_settings_average_speed_kmh_check', `average_speed_kmh BETWEEN 5 AND 130`)
@Check('company_settings_service_minutes_delivery_check', `service_minutes_delivery BETWEEN 0 AND 600`)
@Check('company_settings_service_minutes_pickup_check', `service_minutes_pickup BETWEEN 0 AND 600`)
@Check('company_settings_service_minutes_swap_check', `service_minutes_swap BETWEEN 0 AND 600`)
@Check('company_settings_service_minutes_dump_return_check', `service_minutes_dump_return BETWEEN 0 AND 600`)
@Check('company_settings_service_minutes_relocate_check', `service_minutes_relocate BETWEEN 0 AND 600`)
@Check('company_settings_station_minutes_check', `station_minutes BETWEEN 0 AND 600`)
@Check('company_settings_arrival_slip_minutes_check', `arrival_slip_minutes BETWEEN 1 AND 600`)
export class CompanySettings {
  @ForeignKey('companies', { name: 'company_settings_company_id_fkey' })
  @PrimaryColumn({ type: 'uuid' })
  companyId: string;

  @Column({ type: 'text', default: 'UTC' })
  timezone: string;

  @Column({ type: 'char', length: 3, default: 'USD' })
  currency: string;

  @Column({ type: 'int', default: 1 })
  orderLeadTimeDays: number;

  @Column({ type: 'boolean', default: false })
  autoApproveOrders: boolean;

  @Column({ type: 'int', default: 24 })
  freeCancellationHours: number;

  @Column({ type: 'int', default: 0 })
  cancellationFeeAmount: number;

  @Column({ type: 'int', default: 10 })
  demeritWarningThreshold: number;

  @Column({ type: 'int', default: 20 })
  demeritBlockThreshold: number;

  @Column({ type: 'int', default: 365 })
  demeritWindowDays: number;

  @Column({ type: 'int', default: 20 })
  annualLeaveAllowanceDays: number;

  @Column({ type: 'int', default: 10 })
  sickLeaveAllowanceDays: number;

  @Column({ type: 'int', default: 0 })
  unpaidLeaveAllowanceDays: number;

  @Column({ type: 'int', default: 0 })
  otherLeaveAllowanceDays: number;

  @Column({ type: 'text', default: 'customer' })
  refundExcessTo: RefundExcessTo;

  @Column({ type: 'text', default: '07:00' })
  shiftStartTime: string;

  @Column({ type: 'int', default: 600 })
  shiftMinutes: number;

  @Column({ type: 'int', default: 40 })
  averageSpeedKmh: number;

  @Column({ type: 'int', default: 15 })
  serviceMinutesDelivery: number;

  @Column({ type: 'int', default: 15 })
  serviceMinutesPickup: number;

  @Column({ type: 'int', default: 25 })
  serviceMinutesSwap: number;

  @Column({ type: 'int', default: 20 })
  serviceMinutesDumpReturn: number;

  @Column({ type: 'int', default: 20 })
  serviceMinutesRelocate: number;

  @Column({ type: 'int', default: 20 })
  stationMinutes: number;

  @Column({ type: 'int', default: 15 })
  arrivalSlipMinutes: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
