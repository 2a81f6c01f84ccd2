import { Column, DeleteDateColumn, Entity } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';

/** Columns every soft-deletable company-owned catalogue row has. */
export abstract class CompanyOwned extends BaseEntity {
  @Column({ type: 'uuid' })
  companyId: string;

  @DeleteDateColumn({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}

@Entity('waste_types')
export class WasteType extends CompanyOwned {
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text' }) code: string;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ type: 'text', array: true, default: () => `'{}'` }) prohibitedItems: string[];
  @Column({ type: 'boolean', default: false }) hazardous: boolean;
  @Column({ type: 'boolean', default: true }) active: boolean;
}

@Entity('asset_categories')
export class AssetCategory extends CompanyOwned {
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text', nullable: true }) description: string | null;
}

@Entity('asset_styles')
export class AssetStyle extends CompanyOwned {
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text', nullable: true }) description: string | null;
}

export const SIZE_UNITS = ['yd3', 'm3', 'ft3', 'gal', 'l'] as const;
export type SizeUnit = (typeof SIZE_UNITS)[number];

@Entity('asset_specifications')
export class AssetSpecification extends CompanyOwned {
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ type: 'uuid' }) assetCategoryId: string;
  @Column({ type: 'uuid', nullable: true }) assetStyleId: string | null;
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
}

/** Which waste types may go in a specification, with an optional price override (minor units). */
@Entity('asset_specification_waste_types')
export class AssetSpecificationWasteType extends BaseEntity {
  @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'uuid' }) assetSpecificationId: string;
  @Column({ type: 'uuid' }) wasteTypeId: string;
  @Column({ type: 'integer', nullable: true }) priceOverrideAmount: number | null;
}

export const ASSET_CONDITIONS = ['new', 'good', 'fair', 'poor', 'damaged'] as const;
export type AssetCondition = (typeof ASSET_CONDITIONS)[number];
export const ASSET_STATUSES = ['available', 'reserved', 'in_transit', 'on_site', 'full_in_yard', 'at_station', 'maintenance', 'retired'] as const;
export type AssetStatus = (typeof ASSET_STATUSES)[number];
export const LOCATION_TYPES = ['lot', 'customer_address', 'station', 'truck'] as const;
export type LocationType = (typeof LOCATION_TYPES)[number];

@Entity('assets')
export class Asset extends CompanyOwned {
  @Column({ type: 'text' }) code: string;
  @Column({ type: 'text', nullable: true }) serial: string | null;
  @Column({ type: 'uuid' }) assetSpecificationId: string;
  @Column({ type: 'uuid', nullable: true }) homeLotId: string | null;
  @Column({ type: 'text', default: 'good' }) condition: AssetCondition;
  @Column({ type: 'text', default: 'available' }) status: AssetStatus;
  @Column({ type: 'text', nullable: true }) notes: string | null;
  @Column({ type: 'double precision', nullable: true }) lat: number | null;
  @Column({ type: 'double precision', nullable: true }) lng: number | null;
  @Column({ type: 'text', nullable: true }) locationType: LocationType | null;
  @Column({ type: 'uuid', nullable: true }) locationId: string | null;
  @Column({ type: 'timestamptz', nullable: true }) locationUpdatedAt: Date | null;
}
