import { Check, Column, CreateDateColumn, DeleteDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';
import { Tenant } from '../../common/access/tenant-policy';

/**
 * Columns every soft-deletable company-owned catalogue row has. Each table declares its own indexes
 * and its company_id foreign key: their names carry the table's name.
 */
export abstract class CompanyOwned extends BaseEntity {
  @Column({ type: 'uuid' })
  companyId: string;

  @DeleteDateColumn({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}

@Tenant()
@Entity('waste_types')
@ForeignKey('companies', ['companyId'], ['id'], { name: 'waste_types_company_id_fkey' })
@Index('idx_waste_types_company_id', ['companyId', 'createdAt'])
// The platform administrators' list across companies (migration 1764400004000-Platform).
@Index('idx_waste_types_created', ['createdAt', 'id'])
@Index('idx_waste_types_company_hazardous', ['companyId', 'hazardous'])
@Index('idx_waste_types_company_active', ['companyId', 'active'])
// Expression index UNIQUE (company_id, lower(code)) WHERE deleted_at IS NULL: TypeORM cannot express it, so it is declared by name and left alone.
@Index('uq_waste_types_company_code', { synchronize: false })
export class WasteType extends CompanyOwned {
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text' }) code: string;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ type: 'text', array: true, default: () => `'{}'` }) prohibitedItems: string[];
  @Column({ type: 'boolean', default: false }) hazardous: boolean;
  @Column({ type: 'boolean', default: true }) active: boolean;
}

@Tenant()
@Entity('asset_categories')
@ForeignKey('companies', ['companyId'], ['id'], { name: 'asset_categories_company_id_fkey' })
@Index('idx_asset_categories_company_id', ['companyId', 'createdAt'])
// Expression index UNIQUE (company_id, lower(name)) WHERE deleted_at IS NULL: TypeORM cannot express it, so it is declared by name and left alone.
@Index('uq_asset_categories_company_name', { synchronize: false })
export class AssetCategory extends CompanyOwned {
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text', nullable: true }) description: string | null;
}

@Tenant()
@Entity('asset_styles')
@ForeignKey('companies', ['companyId'], ['id'], { name: 'asset_styles_company_id_fkey' })
@Index('idx_asset_styles_company_id', ['companyId', 'createdAt'])
// Expression index UNIQUE (company_id, lower(name)) WHERE deleted_at IS NULL: TypeORM cannot express it, so it is declared by name and left alone.
@Index('uq_asset_styles_company_name', { synchronize: false })
export class AssetStyle extends CompanyOwned {
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text', nullable: true }) description: string | null;
}

export const SIZE_UNITS = ['yd3', 'm3', 'ft3', 'gal', 'l'] as const;
export type SizeUnit = (typeof SIZE_UNITS)[number];

@Tenant()
@Entity('asset_specifications')
@ForeignKey('companies', ['companyId'], ['id'], { name: 'asset_specifications_company_id_fkey' })
@Index('idx_asset_specifications_company_id', ['companyId', 'createdAt'])
// The platform administrators' list across companies (migration 1764400004000-Platform).
@Index('idx_asset_specifications_created', ['createdAt', 'id'])
@Index('idx_asset_specifications_company_active', ['companyId', 'active'])
// Expression index UNIQUE (company_id, lower(name)) WHERE deleted_at IS NULL: TypeORM cannot express it, so it is declared by name and left alone.
@Index('uq_asset_specifications_company_name', { synchronize: false })
@Check('asset_specifications_size_check', `size > 0`)
@Check('asset_specifications_size_unit_check', `size_unit IN ('yd3', 'm3', 'ft3', 'gal', 'l')`)
@Check('asset_specifications_length_mm_check', `length_mm > 0`)
@Check('asset_specifications_width_mm_check', `width_mm > 0`)
@Check('asset_specifications_height_mm_check', `height_mm > 0`)
@Check('asset_specifications_max_weight_kg_check', `max_weight_kg >= 0`)
@Check('asset_specifications_included_weight_kg_check', `included_weight_kg >= 0`)
@Check('asset_specifications_included_days_check', `included_days >= 0`)
export class AssetSpecification extends CompanyOwned {
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Index('idx_asset_specifications_asset_category_id')
  @ForeignKey('asset_categories', { name: 'asset_specifications_asset_category_id_fkey' })
  @Column({ type: 'uuid' })
  assetCategoryId: string;
  @Index('idx_asset_specifications_asset_style_id')
  @ForeignKey('asset_styles', { name: 'asset_specifications_asset_style_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  assetStyleId: string | null;
  @Column({ type: 'integer' }) size: number;
  @Column({ type: 'text' }) sizeUnit: SizeUnit;
  @Column({ type: 'integer', nullable: true }) lengthMm: number | null;
  @Column({ type: 'integer', nullable: true }) widthMm: number | null;
  @Column({ type: 'integer', nullable: true }) heightMm: number | null;
  @Column({ type: 'integer', nullable: true }) maxWeightKg: number | null;
  @Column({ type: 'integer', nullable: true }) includedWeightKg: number | null;
  @Column({ type: 'integer', nullable: true }) includedDays: number | null;
  @Column({ type: 'text', nullable: true }) imageUrl: string | null;
  @Column({ type: 'boolean', default: true }) active: boolean;
  /**
   * Placement, approval, change requests and assignment refuse an order no container of it is free for (the
   * container calendar): true always, false never, null (default) automatic, once a live asset of it is recorded.
   */
  @Column({ type: 'boolean', nullable: true, default: null }) checkAvailability: boolean | null;
}

/** Which waste types may go in a specification, with an optional price override (minor units). */
@Tenant()
@Entity('asset_specification_waste_types')
@Check('asset_specification_waste_types_price_override_amount_check', `price_override_amount >= 0`)
@Index('uq_asset_specification_waste_types_pair', ['assetSpecificationId', 'wasteTypeId'], { unique: true })
export class AssetSpecificationWasteType extends BaseEntity {
  @Index('idx_asset_specification_waste_types_company_id')
  @ForeignKey('companies', { name: 'asset_specification_waste_types_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;
  @ForeignKey('asset_specifications', { name: 'asset_specification_waste_types_asset_specification_id_fkey' })
  @Column({ type: 'uuid' })
  assetSpecificationId: string;
  @Index('idx_asset_specification_waste_types_waste_type_id')
  @ForeignKey('waste_types', { name: 'asset_specification_waste_types_waste_type_id_fkey' })
  @Column({ type: 'uuid' })
  wasteTypeId: string;
  @Column({ type: 'integer', nullable: true }) priceOverrideAmount: number | null;
}

export const ASSET_CONDITIONS = ['new', 'good', 'fair', 'poor', 'damaged'] as const;
export type AssetCondition = (typeof ASSET_CONDITIONS)[number];
export const ASSET_STATUSES = ['available', 'reserved', 'in_transit', 'on_site', 'full_in_yard', 'at_station', 'maintenance', 'retired'] as const;
export type AssetStatus = (typeof ASSET_STATUSES)[number];
export const LOCATION_TYPES = ['lot', 'customer_address', 'station', 'truck'] as const;
export type LocationType = (typeof LOCATION_TYPES)[number];

@Tenant()
@Entity('assets')
@ForeignKey('companies', ['companyId'], ['id'], { name: 'assets_company_id_fkey' })
@Index('idx_assets_company_id', ['companyId', 'createdAt'])
// The platform administrators' list across companies (migration 1764400004000-Platform).
@Index('idx_assets_created', ['createdAt', 'id'])
@Index('idx_assets_company_status', ['companyId', 'status'])
@Index('idx_assets_location', ['locationType', 'locationId'])
// Expression index UNIQUE (company_id, lower(code)) WHERE deleted_at IS NULL: TypeORM cannot express it, so it is declared by name and left alone.
@Index('uq_assets_company_code', { synchronize: false })
// Expression index UNIQUE (company_id, lower(serial)) WHERE deleted_at IS NULL AND serial IS NOT NULL: TypeORM cannot express it, so it is declared by name and left alone.
@Index('uq_assets_company_serial', { synchronize: false })
@Check('assets_condition_check', `condition IN ('new', 'good', 'fair', 'poor', 'damaged')`)
@Check('assets_status_check', `status IN ('available', 'reserved', 'in_transit', 'on_site', 'full_in_yard', 'at_station', 'maintenance', 'retired')`)
@Check('assets_lat_check', `lat BETWEEN -90 AND 90`)
@Check('assets_lng_check', `lng BETWEEN -180 AND 180`)
@Check('assets_location_type_check', `location_type IN ('lot', 'customer_address', 'station', 'truck')`)
export class Asset extends CompanyOwned {
  @Column({ type: 'text' }) code: string;
  @Column({ type: 'text', nullable: true }) serial: string | null;
  @Index('idx_assets_asset_specification_id')
  @ForeignKey('asset_specifications', { name: 'assets_asset_specification_id_fkey' })
  @Column({ type: 'uuid' })
  assetSpecificationId: string;
  @Index('idx_assets_home_lot_id')
  @ForeignKey('lots', { name: 'assets_home_lot_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  homeLotId: string | null;
  @Column({ type: 'text', default: 'good' }) condition: AssetCondition;
  @Column({ type: 'text', default: 'available' }) status: AssetStatus;
  @Column({ type: 'text', nullable: true }) notes: string | null;
  @Column({ type: 'double precision', nullable: true }) lat: number | null;
  @Column({ type: 'double precision', nullable: true }) lng: number | null;
  @Column({ type: 'text', nullable: true }) locationType: LocationType | null;
  @Column({ type: 'uuid', nullable: true }) locationId: string | null;
  @Column({ type: 'timestamptz', nullable: true }) locationUpdatedAt: Date | null;
}

/** Every status or place change of an asset made by a job (dispatch): the asset's history. */
@Tenant({ customer: false, driver: false })
@Entity('asset_history')
@Index('idx_asset_history_asset', ['assetId', 'createdAt'])
@Check('asset_history_location_type_check', `location_type IN ('lot', 'customer_address', 'station', 'truck')`)
export class AssetHistory {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Index('idx_asset_history_company')
  @ForeignKey('companies', { name: 'asset_history_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;
  @ForeignKey('assets', { name: 'asset_history_asset_id_fkey' }) @Column({ type: 'uuid' }) assetId: string;
  @Column({ type: 'text', nullable: true }) fromStatus: AssetStatus | null;
  @Column({ type: 'text' }) toStatus: AssetStatus;
  @Column({ type: 'text', nullable: true }) locationType: LocationType | null;
  @Column({ type: 'uuid', nullable: true }) locationId: string | null;
  @Column({ type: 'double precision', nullable: true }) lat: number | null;
  @Column({ type: 'double precision', nullable: true }) lng: number | null;
  /** The job that made the change (no foreign key: jobs are a higher layer's rows). */
  @Column({ type: 'uuid', nullable: true }) jobId: string | null;
  @CreateDateColumn({ type: 'timestamptz', default: () => 'clock_timestamp()' }) createdAt: Date;
}

/**
 * The container calendar (migration 1764700400000-ContainerCalendar): an unfinished order's hold on one
 * unit of its specification (at its lot) from `startsOn` to `endsOn` (null: open-ended until a pickup is
 * scheduled), and the asset once dispatch pins one. Released (`releasedAt`) when the order completes, is
 * cancelled or rejected. Written by catalogue's SQL API (`catalogue_hold_container`, `catalogue_pin_container`).
 */
@Tenant({ customer: false, driver: false })
@Entity('container_reservations')
@ForeignKey('companies', ['companyId'], ['id'], { name: 'container_reservations_company_id_fkey' })
@Index('uq_container_reservations_order', ['orderId'], { unique: true, where: 'released_at IS NULL' })
// (company_id, asset_specification_id, starts_on) INCLUDE (ends_on, lot_id, order_id) WHERE released_at IS NULL: TypeORM cannot express INCLUDE, so it is declared by name and left alone.
@Index('idx_container_reservations_spec', { synchronize: false })
@Index('idx_container_reservations_asset', ['assetId', 'startsOn'], { where: 'released_at IS NULL AND asset_id IS NOT NULL' })
@Check('container_reservations_dates_check', `ends_on IS NULL OR ends_on >= starts_on`)
export class ContainerReservation extends BaseEntity {
  @Column({ type: 'uuid' }) companyId: string;
  /** The order (no foreign key: orders are a higher layer's rows). */
  @Column({ type: 'uuid' }) orderId: string;
  @ForeignKey('asset_specifications', { name: 'container_reservations_asset_specification_id_fkey' }) @Column({ type: 'uuid' }) assetSpecificationId: string;
  @Index('idx_container_reservations_lot') @ForeignKey('lots', { name: 'container_reservations_lot_id_fkey' }) @Column({ type: 'uuid', nullable: true }) lotId: string | null;
  @ForeignKey('assets', { name: 'container_reservations_asset_id_fkey' }) @Column({ type: 'uuid', nullable: true }) assetId: string | null;
  @Column({ type: 'date' }) startsOn: string;
  @Column({ type: 'date', nullable: true }) endsOn: string | null;
  @Column({ type: 'timestamptz', nullable: true }) releasedAt: Date | null;
}
