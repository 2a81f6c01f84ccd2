import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, Matches } from 'class-validator';
import { Given, TextField } from '../../../common/validation/fields';
import { INBOUND_OUTCOMES, type InboundOutcome } from './webhook.entities';

/**
 * An event from the sandbox provider. `charge.succeeded` / `charge.failed`: `data.reference` (the
 * provider's charge reference, our ledger row's `provider_ref`), `data.key` (optional: our idempotency key
 * of the charge, which finds a pending charge whose reference we never learnt), `data.failure_code` (failed);
 * `charge.refunded`: `data.reference`, `data.amount_refunded` (all refunded of the charge so far);
 * `charge.dispute_lost`: `data.reference`, `data.dispute`, `data.amount`; `merchant.updated`: `data.reference` (the merchant) and `data.status` (`pending`, `approved`, `rejected`).
 * Any other type is recorded and ignored.
 */
export class InboundEventDto {
  @TextField({ max: 200, description: "The provider's event id (replays carry the same id).", example: 'evt_3f1c2e9a6b1d' })
  id: string;

  @TextField({ max: 100, description: 'The event type.', example: 'charge.succeeded' })
  @Matches(/^[a-z0-9_.]+$/, { message: 'type must be lower-case letters, digits, dots and underscores' })
  type: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { reference: 'ch_sandbox_1', key: 'charge:3f1c2e9a-6b1d-4c1e-9a6b-1d4c1e9a6b1d', failure_code: null } })
  @Given()
  @IsObject()
  data?: Record<string, unknown>;
}

export class InboundEventResultDto {
  @ApiProperty({ description: "The provider's event id.", example: 'evt_3f1c2e9a6b1d' }) event: string;
  @ApiProperty({ example: 'charge.succeeded' }) type: string;
  @ApiProperty({ description: 'True when this event id was received before: nothing was changed again.', example: false }) duplicate: boolean;
  @ApiProperty({ enum: INBOUND_OUTCOMES, description: '`applied`; `no_match` (no pending charge or merchant with this reference); `ignored` (a type not handled).', example: 'applied' })
  outcome: InboundOutcome;
  @ApiProperty({ type: String, nullable: true, description: 'Why the event changed nothing (`no_match`, `ignored`); null when applied.', example: null })
  reason: string | null;
}
