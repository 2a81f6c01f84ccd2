import { Column, DeleteDateColumn, Entity, Index } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';

export const TRUCK_STATUSES = ['active', 'maintenance', 'retired'] as const;
export type TruckStatus = (typeof TRUCK_STATUSES)[number];

/** A kind of truck: capacity and the asset specifications it can carry (truck_type_asset_specifications). */
@Entity('truck_types')
export class TruckType extends BaseEntity {
  @Index() @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'int', default: 0 }) capacityKg: number;
  @DeleteDateColumn({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}

@Entity('trucks')
export class Truck extends BaseEntity {
  @Index() @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'text' }) plate: string;
  @Column({ type: 'text', nullable: true }) name: string | null;
  @Index() @Column({ type: 'uuid' }) truckTypeId: string;
  @Index() @Column({ type: 'uuid', nullable: true }) homeLotId: string | null;
  @Column({ type: 'int', nullable: true }) tareWeightKg: number | null;
  @Column({ type: 'text', default: 'active' }) status: TruckStatus;
  @Column({ type: 'double precision', nullable: true }) lat: number | null;
  @Column({ type: 'double precision', nullable: true }) lng: number | null;
  @Column({ type: 'timestamptz', nullable: true }) locationUpdatedAt: Date | null;
  @DeleteDateColumn({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}
