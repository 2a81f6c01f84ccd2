import { ApiProperty, OmitType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize } from 'class-validator';
import { PageQuery } from '../../common/http/pagination';
import { BoolQuery, EnumField, PartialInput, TextField, UuidListField } from '../../common/validation/fields';
import { orderNumber } from '../orders';
import { POLICY_CATEGORIES, type PolicyCategory } from '../pricing';
import type { DisputeMessage, PolicyViolation } from './accountability.entities';
import { DISPUTE_AUTHOR_TYPES, MAX_EVIDENCE, MAX_POLICIES, RESOLUTIONS, VIOLATION_STATUSES, type DisputeAuthorType, type Resolution, type ViolationStatus } from './accountability.types';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const mediaUrl = (id: string) => `/api/v1/media/${id}`;

const EVIDENCE = `Uploads (POST /upload-media) showing the violation: photos, a weigh ticket; at most ${MAX_EVIDENCE}.`;

// ---------------------------------------------------------------- bodies

/** `POST /orders/{order}/violated-policies`: one violation per policy, sharing the note and evidence. */
export class RecordViolationsDto {
  @UuidListField({ description: `Policies of the company (active) the customer violated on this order, each not yet recorded on it; 1 to ${MAX_POLICIES}.`, example: ['8e5c9f57-41a4-4c55-8a53-0a4f5d1f2b7e'] })
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_POLICIES)
  policy_ids: string[];

  @TextField({ optional: true, max: 2000, example: 'Container loaded 40 cm above the rim; the driver could not tarp it.' })
  note?: string;

  @UuidListField({ optional: true, description: EVIDENCE, example: ['3f0c2a9e-7d1b-4c55-9a53-0a4f5d1f2b7e'] })
  @ArrayMaxSize(MAX_EVIDENCE)
  evidence_media_ids?: string[];
}

/** `PUT /orders/{order}/violated-policies/update`: the order's new set (possibly empty). */
export class ReplaceViolationsDto {
  @UuidListField({
    description: `The order's violated policies after the change (0 to ${MAX_POLICIES}): policies kept keep their violation (points, fee, dispute), new ones are recorded, the others removed with their fee.`,
    example: ['8e5c9f57-41a4-4c55-8a53-0a4f5d1f2b7e'],
  })
  @ArrayMaxSize(MAX_POLICIES)
  policy_ids: string[];

  @TextField({ optional: true, max: 2000, example: 'Overfill confirmed at the scale; access was clear after all.', description: 'Set on every violation of the new set.' })
  note?: string;

  @UuidListField({ optional: true, description: `${EVIDENCE} Set on every violation of the new set.`, example: ['3f0c2a9e-7d1b-4c55-9a53-0a4f5d1f2b7e'] })
  @ArrayMaxSize(MAX_EVIDENCE)
  evidence_media_ids?: string[];
}

/** A customer's dispute message. */
export class CustomerDisputeMessageDto {
  @TextField({ max: 4000, example: 'The container was level with the rim when your driver arrived: see my photo.' }) body: string;
  @UuidListField({ optional: true, description: EVIDENCE, example: ['3f0c2a9e-7d1b-4c55-9a53-0a4f5d1f2b7e'] })
  @ArrayMaxSize(MAX_EVIDENCE)
  evidence_media_ids?: string[];
}

/** `PATCH /customer/policy-violation-disputes/messages/{message}`: the fields given. */
export class UpdateDisputeMessageDto extends PartialInput(CustomerDisputeMessageDto) {}

/** A company's dispute message; with `resolution` it closes the dispute. */
export class CompanyDisputeMessageDto extends CustomerDisputeMessageDto {
  @EnumField(RESOLUTIONS, {
    optional: true,
    example: 'waived',
    description: '`upheld` (points and fee stay) or `waived` (points removed, the fee credited): closes the violation. An open violation (not disputed) can only be upheld.',
  })
  resolution?: Resolution;
}

// ---------------------------------------------------------------- queries

/** `GET /demerit/customers`. */
export class DemeritCustomersQuery extends PageQuery {
  @BoolQuery('Only customers at or over the warning threshold (true), or below it (false).') warning_reached?: boolean;
  @BoolQuery('Only customers at or over the block threshold (true), or below it (false).') blocked?: boolean;
}

/** A customer's orders with violations. */
export class DemeritOrdersQuery extends OmitType(PageQuery, ['q'] as const) {}

// ---------------------------------------------------------------- responses

export class ViolationCustomerDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Pat Miller' }) name: string;
}

export class PolicyViolationDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) order_id: string;
  @ApiProperty({ example: 'ORD-000042' }) order_number: string;
  @ApiProperty({ type: ViolationCustomerDto }) customer: ViolationCustomerDto;
  @ApiProperty({ format: 'uuid' }) policy_id: string;
  @ApiProperty({ example: 'Overfilled container', description: "The policy's name when recorded." }) policy_name: string;
  @ApiProperty({ enum: POLICY_CATEGORIES }) policy_category: PolicyCategory;
  @ApiProperty({ type: 'integer', example: 2, description: "Demerit points, copied from the policy when recorded; they count in the company's window unless waived." }) points: number;
  @ApiProperty({ type: 'integer', example: 7500, description: "The policy's fee when recorded (minor units, before taxes)." }) fee_amount: number;
  @ApiProperty({ type: 'integer', example: 8119, description: "What the order's bill grew by: the fee and the taxes on fees." }) charged_amount: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'What a waiver took off the bill (the fee and its taxes).' }) credited_amount: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ nullable: true, type: String, example: 'Container loaded 40 cm above the rim.' }) note: string | null;
  @ApiProperty({ type: [String], format: 'uuid' }) evidence_media_ids: string[];
  @ApiProperty({ type: [String], example: ['/api/v1/media/3f0c2a9e-7d1b-4c55-9a53-0a4f5d1f2b7e'], description: 'Where each evidence file is served.' }) evidence_urls: string[];
  @ApiProperty({ enum: VIOLATION_STATUSES, description: '`open` → `disputed` (the customer wrote) → `upheld` | `waived` (the company resolved); `open` → `upheld` without a dispute.' }) status: ViolationStatus;
  @ApiProperty({ type: 'integer', example: 3, description: 'Messages of its dispute (deleted ones not counted).' }) messages_count: number;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: "The customer's first message." }) disputed_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) resolved_at: string | null;
  @ApiProperty({ format: 'date-time', description: 'When it was recorded (its points count from then, for the window).' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;

  static of(v: PolicyViolation, raw: { customer_name?: unknown; messages_count?: unknown }): PolicyViolationDto {
    return {
      id: v.id,
      order_id: v.orderId,
      order_number: orderNumber(v.orderNumber),
      customer: { id: v.customerId, name: (raw.customer_name as string | null) ?? '' },
      policy_id: v.policyId,
      policy_name: v.policyName,
      policy_category: v.policyCategory,
      points: v.points,
      fee_amount: v.feeAmount,
      charged_amount: v.chargedAmount,
      credited_amount: v.creditedAmount,
      currency: v.currency,
      note: v.note,
      evidence_media_ids: v.evidenceMediaIds,
      evidence_urls: v.evidenceMediaIds.map(mediaUrl),
      status: v.status,
      messages_count: Number(raw.messages_count ?? 0),
      disputed_at: iso(v.disputedAt),
      resolved_at: iso(v.resolvedAt),
      created_at: v.createdAt.toISOString(),
      updated_at: v.updatedAt.toISOString(),
    };
  }
}

export class DisputeMessageDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) violation_id: string;
  @ApiProperty({ enum: DISPUTE_AUTHOR_TYPES }) author_type: DisputeAuthorType;
  @ApiProperty({ format: 'uuid', description: 'The user who wrote it (a company user or the customer).' }) author_id: string;
  @ApiProperty({ example: 'Pat Miller' }) author_name: string;
  @ApiProperty({ example: 'The container was level with the rim when your driver arrived: see my photo.' }) body: string;
  @ApiProperty({ type: [String], format: 'uuid' }) evidence_media_ids: string[];
  @ApiProperty({ type: [String], example: ['/api/v1/media/3f0c2a9e-7d1b-4c55-9a53-0a4f5d1f2b7e'] }) evidence_urls: string[];
  @ApiProperty({ enum: RESOLUTIONS, nullable: true, type: String, description: 'Set on the company message that closed the dispute.' }) resolution: Resolution | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When its author last changed it.' }) edited_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;

  static of(x: DisputeMessage, authorName: string): DisputeMessageDto {
    return {
      id: x.id,
      violation_id: x.violationId,
      author_type: x.authorType,
      author_id: x.authorId,
      author_name: authorName,
      body: x.body,
      evidence_media_ids: x.evidenceMediaIds,
      evidence_urls: x.evidenceMediaIds.map(mediaUrl),
      resolution: x.resolution,
      edited_at: iso(x.editedAt),
      created_at: x.createdAt.toISOString(),
      updated_at: x.updatedAt.toISOString(),
    };
  }
}

/** A violation with its dispute's messages, oldest first. */
export class DisputeDto {
  @ApiProperty({ type: PolicyViolationDto }) violation: PolicyViolationDto;
  @ApiProperty({ description: 'Whether messages may still be posted (open or disputed), and the customer may edit or delete theirs (disputed).' }) open: boolean;
  @ApiProperty({ type: [DisputeMessageDto], description: 'Oldest first; deleted messages are left out.' }) messages: DisputeMessageDto[];
}

export class ViolationCountsDto {
  @ApiProperty({ type: 'integer', example: 1 }) open: number;
  @ApiProperty({ type: 'integer', example: 1 }) disputed: number;
  @ApiProperty({ type: 'integer', example: 2 }) upheld: number;
  @ApiProperty({ type: 'integer', example: 0 }) waived: number;
}

/** A customer's points against the company's thresholds. */
export class DemeritPointsDto {
  @ApiProperty({ type: 'integer', example: 12, description: "Points of the violations recorded within the company's window, waived ones excluded." }) points: number;
  @ApiProperty({ type: 'integer', example: 10 }) warning_threshold: number;
  @ApiProperty({ type: 'integer', example: 20 }) block_threshold: number;
  @ApiProperty({ type: 'integer', example: 365, description: 'Days over which points count.' }) window_days: number;
  @ApiProperty({ description: 'points ≥ warning_threshold (and points > 0).' }) warning_reached: boolean;
  @ApiProperty({ description: 'points ≥ block_threshold (and points > 0): new orders are refused (403 `DEMERIT_BLOCKED`).' }) blocked: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When the oldest violation still counted leaves the window (the points go down then); null when none counts.' })
  points_change_at: string | null;
}

/** A customer's demerit standing with their violations by state. */
export class DemeritStandingDto extends DemeritPointsDto {
  @ApiProperty({ type: ViolationCustomerDto }) customer: ViolationCustomerDto;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) last_violation_at: string | null;
  @ApiProperty({ type: ViolationCountsDto, description: 'Violations by state, at any time.' }) violations: ViolationCountsDto;
}

/** A row of `GET /demerit/customers`. */
export class DemeritCustomerDto {
  @ApiProperty({ format: 'uuid' }) customer_id: string;
  @ApiProperty({ example: 'Pat Miller' }) name: string;
  @ApiProperty({ type: 'integer', example: 12 }) points: number;
  @ApiProperty({ description: 'At or over the warning threshold.' }) warning_reached: boolean;
  @ApiProperty({ description: 'At or over the block threshold.' }) blocked: boolean;
  @ApiProperty({ type: 'integer', example: 3, description: 'Violations recorded (waived ones included), at any time.' }) violations_count: number;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) last_violation_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When points next leave the window.' }) points_change_at: string | null;
}

/** An order of the customer with violations. */
export class DemeritOrderDto {
  @ApiProperty({ format: 'uuid' }) order_id: string;
  @ApiProperty({ example: 'ORD-000042' }) order_number: string;
  @ApiProperty({ example: 'completed' }) order_status: string;
  @ApiProperty({ type: 'integer', example: 2 }) violations_count: number;
  @ApiProperty({ type: 'integer', example: 4, description: 'Points of its violations, waived ones excluded (whatever the window).' }) points: number;
  @ApiProperty({ type: 'integer', example: 16238, description: 'Fees and their taxes added to the order.' }) charged_amount: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'What waivers took off.' }) credited_amount: number;
  @ApiProperty({ type: ViolationCountsDto }) violations: ViolationCountsDto;
  @ApiProperty({ format: 'date-time' }) last_violation_at: string;
}
