import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsLatitude, IsLongitude, IsNumber } from 'class-validator';
import { PageQuery } from '../../common/http/pagination';
import { EnumField, EnumQuery, IntField, PartialInput, TextField, UuidField, UuidListField, UuidQuery } from '../../common/validation/fields';
import { Truck, TRUCK_STATUSES, TruckType } from './fleet.entity';

const iso = (d: Date) => d.toISOString();

// ---- Truck types -------------------------------------------------------------------------------

export class CreateTruckTypeDto {
  @TextField({ example: 'Roll-off hoist' }) name: string;
  @IntField({ optional: true, example: 13600, description: 'Payload capacity in kg.' }) capacity_kg?: number;
  @UuidListField({ optional: true, description: 'Asset specifications this type can carry (the whole set; replaced on PUT).' }) asset_specification_ids?: string[];
}
export class UpdateTruckTypeDto extends PartialInput(CreateTruckTypeDto) {}

export class TruckTypeQuery extends PageQuery {}

export class TruckTypeDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() capacity_kg: number;
  @ApiProperty({ type: [String], format: 'uuid' }) asset_specification_ids: string[];
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(t: TruckType, specIds: string[]): TruckTypeDto {
    return { id: t.id, name: t.name, capacity_kg: t.capacityKg, asset_specification_ids: specIds, created_at: iso(t.createdAt), updated_at: iso(t.updatedAt) };
  }
}

// ---- Trucks ------------------------------------------------------------------------------------

export class CreateTruckDto {
  @TextField({ max: 20, example: 'TX-4821' }) plate: string;
  @TextField({ nullable: true, example: 'Truck 7' }) name?: string | null;
  @UuidField() truck_type_id: string;
  @UuidField({ nullable: true }) home_lot_id?: string | null;
  @IntField({ nullable: true, example: 11000 }) tare_weight_kg?: number | null;
  @EnumField(TRUCK_STATUSES, { optional: true, description: 'Default `active`.' }) status?: (typeof TRUCK_STATUSES)[number];
}
export class UpdateTruckDto extends PartialInput(CreateTruckDto) {}

export class TruckLocationDto {
  @ApiProperty({ example: 41.8781 }) @IsNumber({ allowNaN: false, allowInfinity: false }) @IsLatitude() lat: number;
  @ApiProperty({ example: -87.6298 }) @IsNumber({ allowNaN: false, allowInfinity: false }) @IsLongitude() lng: number;
}

export class TruckQuery extends PageQuery {
  @EnumQuery(TRUCK_STATUSES) status?: string;
  @UuidQuery() truck_type_id?: string;
  @UuidQuery() home_lot_id?: string;
}

export class TruckDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() plate: string;
  @ApiPropertyOptional({ nullable: true, type: String }) name: string | null;
  @ApiProperty({ format: 'uuid' }) truck_type_id: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) home_lot_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) tare_weight_kg: number | null;
  @ApiProperty({ enum: TRUCK_STATUSES }) status: string;
  @ApiPropertyOptional({ nullable: true, type: Number }) lat: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) lng: number | null;
  @ApiPropertyOptional({ nullable: true, type: String }) location_updated_at: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(t: Truck): TruckDto {
    return {
      id: t.id,
      plate: t.plate,
      name: t.name,
      truck_type_id: t.truckTypeId,
      home_lot_id: t.homeLotId,
      tare_weight_kg: t.tareWeightKg,
      status: t.status,
      lat: t.lat,
      lng: t.lng,
      location_updated_at: t.locationUpdatedAt ? iso(t.locationUpdatedAt) : null,
      created_at: iso(t.createdAt),
      updated_at: iso(t.updatedAt),
    };
  }
}
