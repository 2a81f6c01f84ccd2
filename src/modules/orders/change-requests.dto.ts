import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateBy, ValidateIf, type ValidationArguments } from 'class-validator';
import { isUuid } from '../../common/http/id-param';
import { PageQuery } from '../../common/http/pagination';
import { DATE_MESSAGE, EnumField, EnumQuery, isDateOnly, TextField, UuidQuery } from '../../common/validation/fields';
import { CHANGE_REQUEST_STATUSES, CHANGE_REQUEST_TYPES, type ChangeRequestDetails, type ChangeRequestType, type OrderChangeRequest } from './order.entity';
import { BillDto, orderNumber } from './orders.dto';

// ---------------------------------------------------------------- the body and its per-type fields

type DetailKey = keyof ChangeRequestDetails;

/** The detail fields of each type: `required` must be given, `optional` may be; any other is refused (422). */
export const CHANGE_REQUEST_FIELDS: Readonly<Record<ChangeRequestType, { required: DetailKey[]; optional: DetailKey[] }>> = {
  reschedule_delivery: { required: ['delivery_date'], optional: [] },
  schedule_pickup: { required: ['pickup_date'], optional: [] },
  extend_rental: { required: ['days'], optional: [] },
  swap: { required: ['date'], optional: [] },
  dump_return: { required: ['date'], optional: [] },
  relocate: { required: ['date', 'address_id'], optional: [] },
  change_waste_type: { required: ['waste_type_id'], optional: [] },
  change_specification: { required: ['asset_specification_id'], optional: ['waste_type_id'] },
};
export const DETAIL_KEYS: DetailKey[] = ['delivery_date', 'pickup_date', 'days', 'date', 'address_id', 'waste_type_id', 'asset_specification_id'];

const isType = (v: unknown): v is ChangeRequestType => typeof v === 'string' && (CHANGE_REQUEST_TYPES as readonly string[]).includes(v);
const typeOf = (o: object): ChangeRequestType | undefined => {
  const t = (o as { type?: unknown }).type;
  return isType(t) ? t : undefined;
};
const uses = (type: ChangeRequestType, key: DetailKey) => CHANGE_REQUEST_FIELDS[type].required.includes(key) || CHANGE_REQUEST_FIELDS[type].optional.includes(key);
const typesUsing = (key: DetailKey) => CHANGE_REQUEST_TYPES.filter((t) => uses(t, key));

/**
 * A detail field, validated only against the request's `type` (when `type` itself is invalid, only
 * `type` is reported): required for the types that need it, refused ("is not allowed for type …")
 * for the others, and then checked for its format.
 */
function DetailField(key: DetailKey, format: { check: (v: unknown) => boolean; message: string }, doc: Record<string, unknown>) {
  const problem = (value: unknown, object: object): string | null => {
    const type = typeOf(object)!;
    if (!uses(type, key)) return `is not allowed for type ${type}`;
    if (value === undefined || value === null) return CHANGE_REQUEST_FIELDS[type].required.includes(key) ? `is required for type ${type}` : null;
    return format.check(value) ? null : format.message;
  };
  const required = CHANGE_REQUEST_TYPES.filter((t) => CHANGE_REQUEST_FIELDS[t].required.includes(key));
  return applyDecorators(
    ApiPropertyOptional({ ...doc, description: `${doc.description} Required for ${required.join(', ')}${typesUsing(key).length > required.length ? `; optional for ${typesUsing(key).filter((t) => !required.includes(t)).join(', ')}` : ''}; refused for other types.` }),
    ValidateIf((o: object, v: unknown) => {
      const type = typeOf(o);
      return !!type && (v !== undefined || CHANGE_REQUEST_FIELDS[type].required.includes(key));
    }),
    ValidateBy({
      name: 'changeRequestDetail',
      validator: {
        validate: (v: unknown, args?: ValidationArguments) => problem(v, args!.object) === null,
        defaultMessage: (args?: ValidationArguments) => problem(args!.value, args!.object) ?? 'is invalid',
      },
    }),
  );
}

const DATE = { check: isDateOnly, message: DATE_MESSAGE };
const UUID = { check: isUuid, message: 'must be a UUID' };
const lower = () => Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value));

const ADDRESS_ID = '4c6e8a0b-2d4f-4a6b-8c0d-2e4f6a8b0c2d';
/** One example per type of change request (`@BodyExamples`): each type takes its own fields (CHANGE_REQUEST_FIELDS). */
export const CHANGE_REQUEST_EXAMPLES: Record<ChangeRequestType, { summary: string; value: Record<string, unknown> }> = {
  reschedule_delivery: { summary: 'Deliver on another day', value: { type: 'reschedule_delivery', delivery_date: '2027-03-17', note: 'The framers start Wednesday now.' } },
  schedule_pickup: { summary: 'Pick up on a date', value: { type: 'schedule_pickup', pickup_date: '2027-03-24' } },
  extend_rental: { summary: 'Keep the container longer', value: { type: 'extend_rental', days: 3, note: 'Please extend by three days; the roofers are late.' } },
  swap: { summary: 'Swap the full container for an empty one', value: { type: 'swap', date: '2027-03-19' } },
  dump_return: { summary: 'Empty it and bring it back', value: { type: 'dump_return', date: '2027-03-19', note: 'Gate code 1942.' } },
  relocate: { summary: 'Move it to another address', value: { type: 'relocate', date: '2027-03-20', address_id: ADDRESS_ID, note: 'Second house on the same job, 18 Elm Court.' } },
  change_waste_type: { summary: 'Another waste type', value: { type: 'change_waste_type', waste_type_id: '9e1a3c5e-7f9b-4d1c-a3e5-f7a9b1c3d5e7' } },
  change_specification: { summary: 'A bigger container', value: { type: 'change_specification', asset_specification_id: '1f3b5d7f-9a2c-4e4f-b6a8-c0e2f4a6b8c0' } },
};

/**
 * What a customer asks for: `type` and that type's fields (see CHANGE_REQUEST_FIELDS), plus a note.
 * The billing preview takes the same body.
 */
export class ChangeRequestBodyDto {
  @EnumField(CHANGE_REQUEST_TYPES, { description: 'What to change; decides which of the other fields are required or allowed.' })
  type: ChangeRequestType;

  @DetailField('delivery_date', DATE, { type: String, format: 'date', description: 'The new delivery date: on or after today + the company lead time, the serving lot open that day, not after the pickup date.' })
  delivery_date?: string;

  @DetailField('pickup_date', DATE, { type: String, format: 'date', description: 'The (new) pickup date: not before the delivery date nor today, the serving lot open that day.' })
  pickup_date?: string;

  @DetailField('days', { check: (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 365, message: 'must be an integer from 1 to 365' }, { type: 'integer', minimum: 1, maximum: 365, description: 'Days to add to the scheduled pickup date.' })
  days?: number;

  @DetailField('date', DATE, { type: String, format: 'date', description: 'The service date: not in the past (company time zone), not before delivery nor after the pickup date, the serving lot open that day.' })
  date?: string;

  @lower()
  @DetailField('address_id', UUID, { type: String, format: 'uuid', description: 'One of the customer\'s own addresses, not the current one.' })
  address_id?: string;

  @lower()
  @DetailField('waste_type_id', UUID, { type: String, format: 'uuid', description: 'An active waste type of the company allowed in the (new) specification.' })
  waste_type_id?: string;

  @lower()
  @DetailField('asset_specification_id', UUID, { type: String, format: 'uuid', description: 'An active asset specification of the company, other than the current one.' })
  asset_specification_id?: string;

  @TextField({ optional: true, max: 2000, description: 'A note for the company.' })
  note?: string;
}

/** Only the fields of the body's type, as stored in `details`. */
export function detailsOf(dto: ChangeRequestBodyDto): ChangeRequestDetails {
  const details: Record<string, unknown> = {};
  for (const key of DETAIL_KEYS) if (uses(dto.type, key) && dto[key] !== undefined && dto[key] !== null) details[key] = dto[key];
  return details as ChangeRequestDetails;
}

export class RejectChangeRequestDto {
  @TextField({ max: 1000, description: 'Why the request is rejected; shown to the customer.' }) reason: string;
}

export class ChangeRequestQuery extends PageQuery {
  @EnumQuery(CHANGE_REQUEST_STATUSES) status?: string;
  @EnumQuery(CHANGE_REQUEST_TYPES) type?: string;
  @UuidQuery() order_id?: string;
}

export class CompanyChangeRequestQuery extends ChangeRequestQuery {
  @UuidQuery() customer_id?: string;
}

// ---------------------------------------------------------------- responses

class ChangeRequestDetailsDto {
  @ApiPropertyOptional({ format: 'date' }) delivery_date?: string;
  @ApiPropertyOptional({ format: 'date' }) pickup_date?: string;
  @ApiPropertyOptional() days?: number;
  @ApiPropertyOptional({ format: 'date' }) date?: string;
  @ApiPropertyOptional({ format: 'uuid' }) address_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) waste_type_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) asset_specification_id?: string;
}

export class ChangeRequestDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) order_id: string;
  @ApiProperty({ example: 'ORD-000042' }) order_number: string;
  @ApiProperty({ format: 'uuid' }) customer_id: string;
  @ApiProperty({ enum: CHANGE_REQUEST_TYPES }) type: string;
  @ApiProperty({ enum: CHANGE_REQUEST_STATUSES }) status: string;
  @ApiProperty({ type: ChangeRequestDetailsDto, description: 'The fields of the type, as sent.' }) details: ChangeRequestDetails;
  @ApiProperty({ nullable: true, type: String }) note: string | null;
  @ApiProperty({ nullable: true, type: String }) rejection_reason: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'The company user who decided.' }) decided_by: string | null;
  @ApiProperty({ nullable: true, type: String }) decided_at: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
  @ApiProperty({
    type: BillDto,
    nullable: true,
    description:
      'pending: the difference as it would apply now (order\'s current dates and frozen terms), null when it can no longer be priced; ' +
      'approved: the lines recorded on the order for this request; rejected: an empty bill (nothing charged).',
  })
  billing: BillDto | null;

  static of(r: OrderChangeRequest, number: number, billing: BillDto | null): ChangeRequestDto {
    return {
      id: r.id,
      order_id: r.orderId,
      order_number: orderNumber(number),
      customer_id: r.customerId,
      type: r.type,
      status: r.status,
      details: r.details,
      note: r.note,
      rejection_reason: r.rejectionReason,
      decided_by: r.decidedBy,
      decided_at: r.decidedAt ? r.decidedAt.toISOString() : null,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
      billing,
    };
  }
}

class ChangeRequestCountsDto {
  @ApiProperty() pending: number;
  @ApiProperty() approved: number;
  @ApiProperty() rejected: number;
  @ApiProperty() total: number;
}

/** Counts by status and the latest pending requests (newest first). */
export class ChangeRequestWrapperDto {
  @ApiProperty({ type: ChangeRequestCountsDto }) counts: ChangeRequestCountsDto;
  @ApiProperty({ type: [ChangeRequestDto], description: `The ${5} latest pending requests, newest first.` }) latest_pending: ChangeRequestDto[];
}
