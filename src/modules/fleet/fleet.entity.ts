import { Check, Column, DeleteDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';
import { Tenant } from '../../common/access/tenant-policy';

export const TRUCK_STATUSES = ['active', 'maintenance', 'retired'] as const;
export type TruckStatus = (typeof TRUCK_STATUSES)[number];

/** A kind of truck: capacity and the asset specifications it can carry (truck_type_asset_specifications). */
@Tenant()
@Entity('truck_types')
@Index('idx_truck_types_company_id', ['companyId'])
@Check('truck_types_capacity_kg_check', `capacity_kg >= 0`)
export class TruckType extends BaseEntity {
  @ForeignKey('companies', { name: 'truck_types_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'int', default: 0 }) capacityKg: number;
  @DeleteDateColumn({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}

@Tenant()
@Entity('trucks')
@Index('idx_trucks_company_id', ['companyId', 'status'])
// Expression index UNIQUE (company_id, lower(plate)) WHERE deleted_at IS NULL: TypeORM cannot express it, so it is declared by name and left alone.
@Index('uq_trucks_plate', { synchronize: false })
@Check('trucks_tare_weight_kg_check', `tare_weight_kg >= 0`)
@Check('trucks_status_check', `status IN ('active', 'maintenance', 'retired')`)
@Check('trucks_lat_check', `lat BETWEEN -90 AND 90`)
@Check('trucks_lng_check', `lng BETWEEN -180 AND 180`)
export class Truck extends BaseEntity {
  @ForeignKey('companies', { name: 'trucks_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'text' }) plate: string;
  @Column({ type: 'text', nullable: true }) name: string | null;
  @Index('idx_trucks_truck_type_id')
  @ForeignKey('truck_types', { name: 'trucks_truck_type_id_fkey' })
  @Column({ type: 'uuid' })
  truckTypeId: string;
  @Index('idx_trucks_home_lot_id')
  @ForeignKey('lots', { name: 'trucks_home_lot_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  homeLotId: string | null;
  @Column({ type: 'int', nullable: true }) tareWeightKg: number | null;
  @Column({ type: 'text', default: 'active' }) status: TruckStatus;
  @Column({ type: 'double precision', nullable: true }) lat: number | null;
  @Column({ type: 'double precision', nullable: true }) lng: number | null;
  @Column({ type: 'timestamptz', nullable: true }) locationUpdatedAt: Date | null;
  @DeleteDateColumn({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}

/** The asset specifications a truck type can carry; migration 1763800003000-PricingFleet. */
@Entity('truck_type_asset_specifications')
export class TruckTypeAssetSpecification {
  @ForeignKey('truck_types', { name: 'truck_type_asset_specifications_truck_type_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ type: 'uuid' })
  truckTypeId: string;

  @Index('idx_truck_type_asset_specifications_spec')
  @ForeignKey('asset_specifications', { name: 'truck_type_asset_specifications_asset_specification_id_fkey' })
  @PrimaryColumn({ type: 'uuid' })
  assetSpecificationId: string;
}
