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

/** A row of a company's (lots, stations and their dated rows): its foreign key and indexes are each table's. */
export abstract class CompanyRowEntity extends BaseEntity {
  @Column({ type: 'uuid' })
  companyId: string;
}

/**
 * The table decorators of a lot's or station's dated rows (holidays, opening exceptions), one definition
 * for all four tables: tenant-scoped, the company's foreign key and index, unique per site and date, and
 * `checks`; every name carries the table's. The class keeps its own `@Entity` and site column.
 */
function SiteDayTable(table: string, site: 'lot' | 'station', checks: Record<string, string> = {}): ClassDecorator {
  const decorators: ClassDecorator[] = [
    Tenant(),
    ForeignKey('companies', ['companyId'], ['id'], { name: `${table}_company_id_fkey` }),
    Index(`idx_${table}_company_id`, ['companyId']),
    Index(`uq_${table}_${site}_id_date`, [`${site}Id`, 'date'], { unique: true }),
    ...Object.entries(checks).map(([name, expression]) => Check(`${table}_${name}_check`, expression)),
  ];
  return (target) => decorators.forEach((d) => d(target));
}

/**
 * What lots and stations share: a company's place with an address, a position and opening hours.
 * Each table declares its own indexes, checks and foreign keys: their names carry the table's name.
 */
export abstract class SiteEntity extends CompanyRowEntity {
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
export abstract class HolidayEntity extends CompanyRowEntity {
  /** YYYY-MM-DD */
  @Column({ type: 'date' })
  date: string;

  @Column({ type: 'text' })
  name: string;
}

@Entity('lot_holidays')
@SiteDayTable('lot_holidays', 'lot')
export class LotHoliday extends HolidayEntity {
  @ForeignKey('lots', { name: 'lot_holidays_lot_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid' })
  lotId: string;
}

@Entity('station_holidays')
@SiteDayTable('station_holidays', 'station')
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
/** Special hours have both ends, a closed date neither. */
const HOURS_CHECK = { hours: `(open_time IS NULL) = (close_time IS NULL)` };

export abstract class OpeningExceptionEntity extends CompanyRowEntity {
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

@Entity('lot_opening_exceptions')
@SiteDayTable('lot_opening_exceptions', 'lot', HOURS_CHECK)
export class LotOpeningException extends OpeningExceptionEntity {
  @ForeignKey('lots', { name: 'lot_opening_exceptions_lot_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid' })
  lotId: string;
}

@Entity('station_opening_exceptions')
@SiteDayTable('station_opening_exceptions', 'station', HOURS_CHECK)
export class StationOpeningException extends OpeningExceptionEntity {
  @ForeignKey('stations', { name: 'station_opening_exceptions_station_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid' })
  stationId: string;
}
