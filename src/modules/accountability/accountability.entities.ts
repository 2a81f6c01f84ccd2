import { Check, Column, DeleteDateColumn, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';
import { Tenant } from '../../common/access/tenant-policy';
import type { PolicyCategory } from '../pricing';
import type { DisputeAuthorType, Resolution, ViolationStatus } from './accountability.types';

/**
 * A policy a customer violated on an order (domain.md §7). Points, fee and the policy's name are
 * copied from the policy when recorded; the fee (with its taxes) is on the order's bill as the lines
 * `fee_line_ids`, a waiver's credit as `credit_line_ids`. Removed by replacing the order's set while
 * none is resolved (`deleted_at`; its fee lines voided). States: open → disputed → upheld | waived,
 * open → upheld.
 */
@Tenant({ customer: 'customerId', driver: false })
@Entity('customer_policy_violations')
@Check('customer_policy_violations_points_check', `points >= 0`)
@Check('customer_policy_violations_fee_amount_check', `fee_amount >= 0`)
@Check('customer_policy_violations_status_check', `status IN ('open', 'disputed', 'upheld', 'waived')`)
@Check('customer_policy_violations_resolved_check', `(status IN ('upheld', 'waived')) = (resolved_at IS NOT NULL)`)
// One live violation per policy and order; an order's set, oldest first.
@Index('uq_customer_policy_violations_order_policy', ['orderId', 'policyId'], { unique: true, where: 'deleted_at IS NULL' })
@Index('idx_customer_policy_violations_order_created', ['orderId', 'createdAt', 'id'])
// A customer's violations (points in the window, the customer's lists); the company's.
@Index('idx_customer_policy_violations_customer_created', ['customerId', 'createdAt', 'id'])
@Index('idx_customer_policy_violations_company_created', ['companyId', 'createdAt', 'id'])
export class PolicyViolation extends BaseEntity {
  @ForeignKey('companies', { name: 'customer_policy_violations_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;

  @ForeignKey('orders', { name: 'customer_policy_violations_order_id_fkey' })
  @Column({ type: 'uuid' })
  orderId: string;

  /** The order's number (ORD-000042), copied. */
  @Column({ type: 'int' })
  orderNumber: number;

  @ForeignKey('customers', { name: 'customer_policy_violations_customer_id_fkey' })
  @Column({ type: 'uuid' })
  customerId: string;

  @Index('idx_customer_policy_violations_policy')
  @ForeignKey('policies', { name: 'customer_policy_violations_policy_id_fkey' })
  @Column({ type: 'uuid' })
  policyId: string;

  @Column({ type: 'text' })
  policyName: string;

  @Column({ type: 'text' })
  policyCategory: PolicyCategory;

  @Column({ type: 'int' })
  points: number;

  /** The policy's fee when recorded, before taxes. */
  @Column({ type: 'int' })
  feeAmount: number;

  /** What the order's bill grew by: the fee and its taxes. */
  @Column({ type: 'int', default: 0 })
  chargedAmount: number;

  /** What a waiver took off the bill (positive). */
  @Column({ type: 'int', default: 0 })
  creditedAmount: number;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'text', nullable: true })
  note: string | null;

  @Column({ type: 'uuid', array: true, default: () => `'{}'` })
  evidenceMediaIds: string[];

  @Column({ type: 'text', default: 'open' })
  status: ViolationStatus;

  @Column({ type: 'uuid', array: true, default: () => `'{}'` })
  feeLineIds: string[];

  @Column({ type: 'uuid', array: true, default: () => `'{}'` })
  creditLineIds: string[];

  @Index('idx_customer_policy_violations_recorded_by', { where: 'recorded_by IS NOT NULL' })
  @ForeignKey('users', { name: 'customer_policy_violations_recorded_by_fkey' })
  @Column({ type: 'uuid', nullable: true })
  recordedBy: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  disputedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  resolvedAt: Date | null;

  @Index('idx_customer_policy_violations_resolved_by', { where: 'resolved_by IS NOT NULL' })
  @ForeignKey('users', { name: 'customer_policy_violations_resolved_by_fkey' })
  @Column({ type: 'uuid', nullable: true })
  resolvedBy: string | null;

  @DeleteDateColumn({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}

/**
 * A message of a violation's dispute, by the company or the customer. A company message with a
 * `resolution` closes the dispute. The customer edits (`edited_at`) or deletes (`deleted_at`) its
 * own messages while the dispute is open.
 */
@Tenant({ customer: 'customerId', driver: false })
@Entity('policy_violation_dispute_messages')
@Check('policy_violation_dispute_messages_author_type_check', `author_type IN ('company', 'customer')`)
@Check('policy_violation_dispute_messages_resolution_check', `resolution IN ('upheld', 'waived')`)
@Check('policy_violation_dispute_messages_resolution_author_check', `resolution IS NULL OR author_type = 'company'`)
@Index('idx_policy_violation_dispute_messages_violation', ['violationId', 'createdAt', 'id'])
export class DisputeMessage extends BaseEntity {
  @Index('idx_policy_violation_dispute_messages_company')
  @ForeignKey('companies', { name: 'policy_violation_dispute_messages_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;

  @ForeignKey('customer_policy_violations', { name: 'policy_violation_dispute_messages_violation_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid' })
  violationId: string;

  /** The violation's customer (whose dispute it is), whoever wrote the message. */
  @Index('idx_policy_violation_dispute_messages_customer')
  @ForeignKey('customers', { name: 'policy_violation_dispute_messages_customer_id_fkey' })
  @Column({ type: 'uuid' })
  customerId: string;

  @Column({ type: 'text' })
  authorType: DisputeAuthorType;

  @Index('idx_policy_violation_dispute_messages_author')
  @ForeignKey('users', { name: 'policy_violation_dispute_messages_author_id_fkey' })
  @Column({ type: 'uuid' })
  authorId: string;

  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'uuid', array: true, default: () => `'{}'` })
  evidenceMediaIds: string[];

  @Column({ type: 'text', nullable: true })
  resolution: Resolution | null;

  @Column({ type: 'timestamptz', nullable: true })
  editedAt: Date | null;

  @DeleteDateColumn({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}

/**
 * A customer's demerit standing, kept by this module in the transaction of every change (and when
 * points leave the window): live points, thresholds reached, live violations, the latest one, and
 * when the oldest counted violation leaves the window (`points_change_at`, for the recompute job).
 * Points and the block flag are copied to `customers` (placement reads them there).
 */
@Tenant({ customer: 'customerId', driver: false })
@Entity('customer_demerits')
@Unique('customer_demerits_customer_id_key', ['customerId'])
// The company's list: by points (default, most first), by latest violation, by creation.
@Index('idx_customer_demerits_company_points', ['companyId', 'points', 'id'])
@Index('idx_customer_demerits_company_last_violation', ['companyId', 'lastViolationAt', 'id'])
@Index('idx_customer_demerits_company_created', ['companyId', 'createdAt', 'id'])
@Index('idx_customer_demerits_points_change', ['pointsChangeAt'], { where: 'points_change_at IS NOT NULL' })
export class CustomerDemerit extends BaseEntity {
  @ForeignKey('companies', { name: 'customer_demerits_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;

  @ForeignKey('customers', { name: 'customer_demerits_customer_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid' })
  customerId: string;

  @Column({ type: 'int', default: 0 })
  points: number;

  @Column({ type: 'boolean', default: false })
  warningReached: boolean;

  @Column({ type: 'boolean', default: false })
  blocked: boolean;

  /** Live violations (not removed), waived ones included, at any time. */
  @Column({ type: 'int', default: 0 })
  violationsCount: number;

  @Column({ type: 'timestamptz', nullable: true })
  lastViolationAt: Date | null;

  /** When the oldest violation still counted leaves the window (points go down then); null when none counts. */
  @Column({ type: 'timestamptz', nullable: true })
  pointsChangeAt: Date | null;
}
