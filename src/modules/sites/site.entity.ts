import { Check, Column, CreateDateColumn, DeleteDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';
import { Tenant } from '../../common/access/tenant-policy';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export interface DayHours {
  open: string;
  close: string;
}
/** Per weekday: `{open: '07:00', close: '17:00'}`, or null (or absent) for closed. */
export type OpeningHours = Partial<Record<Weekday, DayHours | null>>;
/** The column default (1763800001000-LotsStations): open every day, all day. */
const OPEN_ALL_DAY: OpeningHours = Object.fromEntries(WEEKDAYS.map((d) => [d, { open: '00:00', close: '24:00' }]));

/**
 * What lots and stations share: a company's place with an address, a position and opening hours.
 * Each table declares its own indexes, checks and foreign keys: their names carry the table's name.
 */
export abstract class SiteEntity extends BaseEntity {
  @Column({ type: 'uuid' })
  companyId: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', nullable: true })
  address: string | null;

  @Column({ type: 'double precision', nullable: true })
  latitude: number | null;

  @Column({ type: 'double precision', nullable: true })
  longitude: number | null;

  @Column({ type: 'jsonb', default: OPEN_ALL_DAY })
  openingHours: OpeningHours;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @DeleteDateColumn({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}

/** A yard where containers and trucks are kept. */
@Tenant()
@Entity('lots')
@ForeignKey('companies', ['companyId'], ['id'], { name: 'lots_company_id_fkey' })
@Index('idx_lots_company_id', ['companyId'], { where: 'deleted_at IS NULL' })
@Index('idx_lots_company_active', ['companyId', 'active'], { where: 'deleted_at IS NULL' })
// Expression index UNIQUE (company_id, lower(name)) WHERE deleted_at IS NULL: TypeORM cannot express it, so it is declared by name and left alone.
@Index('uq_lots_company_name', { synchronize: false })
@Check('lots_latitude_check', `latitude BETWEEN -90 AND 90`)
@Check('lots_longitude_check', `longitude BETWEEN -180 AND 180`)
@Check('lots_capacity_check', `capacity >= 0`)
export class Lot extends SiteEntity {
  @Column({ type: 'int', default: 0 })
  capacity: number;
}

/** A dump site (transfer station, landfill) where containers are emptied and weighed. */
@Tenant()
@Entity('stations')
@ForeignKey('companies', ['companyId'], ['id'], { name: 'stations_company_id_fkey' })
@Index('idx_stations_company_id', ['companyId'], { where: 'deleted_at IS NULL' })
@Index('idx_stations_company_active', ['companyId', 'active'], { where: 'deleted_at IS NULL' })
// Expression index UNIQUE (company_id, lower(name)) WHERE deleted_at IS NULL: TypeORM cannot express it, so it is declared by name and left alone.
@Index('uq_stations_company_name', { synchronize: false })
@Check('stations_latitude_check', `latitude BETWEEN -90 AND 90`)
@Check('stations_longitude_check', `longitude BETWEEN -180 AND 180`)
@Check('stations_dump_cost_per_tonne_amount_check', `dump_cost_per_tonne_amount >= 0`)
export class Station extends SiteEntity {
  @Column({ type: 'int', default: 0 })
  dumpCostPerTonneAmount: number;
}

/**
 * A day a site is closed, whatever its opening hours say. Unique per site and date. Each table
 * declares its own indexes and foreign keys: their names carry the table's name.
 */
export abstract class HolidayEntity extends BaseEntity {
  @Column({ type: 'uuid' })
  companyId: string;

  /** YYYY-MM-DD */
  @Column({ type: 'date' })
  date: string;

  @Column({ type: 'text' })
  name: string;
}

@Tenant()
@Entity('lot_holidays')
@ForeignKey('companies', ['companyId'], ['id'], { name: 'lot_holidays_company_id_fkey' })
@Index('idx_lot_holidays_company_id', ['companyId'])
@Index('uq_lot_holidays_lot_id_date', ['lotId', 'date'], { unique: true })
export class LotHoliday extends HolidayEntity {
  @ForeignKey('lots', { name: 'lot_holidays_lot_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid' })
  lotId: string;
}

@Tenant()
@Entity('station_holidays')
@ForeignKey('companies', ['companyId'], ['id'], { name: 'station_holidays_company_id_fkey' })
@Index('idx_station_holidays_company_id', ['companyId'])
@Index('uq_station_holidays_station_id_date', ['stationId', 'date'], { unique: true })
export class StationHoliday extends HolidayEntity {
  @ForeignKey('stations', { name: 'station_holidays_station_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid' })
  stationId: string;
}

/** The waste types a station accepts (none: every type); migration 1763800001500-StationWasteTypes. */
@Tenant()
@Entity('station_waste_types')
export class StationWasteType {
  @ForeignKey('stations', { name: 'station_waste_types_station_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ type: 'uuid' })
  stationId: string;

  @Index('idx_station_waste_types_waste_type_id')
  @ForeignKey('waste_types', { name: 'station_waste_types_waste_type_id_fkey' })
  @PrimaryColumn({ type: 'uuid' })
  wasteTypeId: string;

  @Index('idx_station_waste_types_company_id')
  @ForeignKey('companies', { name: 'station_waste_types_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}

/**
 * A date whose opening differs from its weekday's hours (issue #25): special hours (`openTime`..`closeTime`,
 * `HH:MM`), or closed (both null). It wins over the weekday's hours; a holiday still closes the date. Unique per
 * site and date (migration 1764700300000-SiteOpeningExceptions). Each table declares its own indexes, checks and
 * foreign keys: their names carry the table's name.
 */
export abstract class OpeningExceptionEntity extends BaseEntity {
  @Column({ type: 'uuid' })
  companyId: string;

  /** YYYY-MM-DD */
  @Column({ type: 'date' })
  date: string;

  @Column({ type: 'text', nullable: true })
  openTime: string | null;

  @Column({ type: 'text', nullable: true })
  closeTime: string | null;

  @Column({ type: 'text', nullable: true })
  note: string | null;
}

@Tenant()
@Entity('lot_opening_exceptions')
@ForeignKey('companies', ['companyId'], ['id'], { name: 'lot_opening_exceptions_company_id_fkey' })
@Index('idx_lot_opening_exceptions_company_id', ['companyId'])
@Index('uq_lot_opening_exceptions_lot_id_date', ['lotId', 'date'], { unique: true })
@Check('lot_opening_exceptions_hours_check', `(open_time IS NULL) = (close_time IS NULL)`)
export class LotOpeningException extends OpeningExceptionEntity {
  @ForeignKey('lots', { name: 'lot_opening_exceptions_lot_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid' })
  lotId: string;
}

@Tenant()
@Entity('station_opening_exceptions')
@ForeignKey('companies', ['companyId'], ['id'], { name: 'station_opening_exceptions_company_id_fkey' })
@Index('idx_station_opening_exceptions_company_id', ['companyId'])
@Index('uq_station_opening_exceptions_station_id_date', ['stationId', 'date'], { unique: true })
@Check('station_opening_exceptions_hours_check', `(open_time IS NULL) = (close_time IS NULL)`)
export class StationOpeningException extends OpeningExceptionEntity {
  @ForeignKey('stations', { name: 'station_opening_exceptions_station_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid' })
  stationId: string;
}
