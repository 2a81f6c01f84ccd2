import { Column, DeleteDateColumn, Entity, Index } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export interface DayHours {
  open: string;
  close: string;
}
/** Per weekday: `{open: '07:00', close: '17:00'}`, or null (or absent) for closed. */
export type OpeningHours = Partial<Record<Weekday, DayHours | null>>;

/** What lots and stations share: a company's place with an address, a position and opening hours. */
export abstract class SiteEntity extends BaseEntity {
  @Index()
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

  @Column({ type: 'jsonb', default: () => `'{}'::jsonb` })
  openingHours: OpeningHours;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @DeleteDateColumn({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}

/** A yard where containers and trucks are kept. */
@Entity('lots')
export class Lot extends SiteEntity {
  @Column({ type: 'int', default: 0 })
  capacity: number;
}

/** A dump site (transfer station, landfill) where containers are emptied and weighed. */
@Entity('stations')
export class Station extends SiteEntity {
  @Column({ type: 'int', default: 0 })
  dumpCostPerTonneAmount: number;
}

/** A day a site is closed, whatever its opening hours say. Unique per site and date. */
export abstract class HolidayEntity extends BaseEntity {
  @Index()
  @Column({ type: 'uuid' })
  companyId: string;

  /** YYYY-MM-DD */
  @Column({ type: 'date' })
  date: string;

  @Column({ type: 'text' })
  name: string;
}

@Entity('lot_holidays')
export class LotHoliday extends HolidayEntity {
  @Index()
  @Column({ type: 'uuid' })
  lotId: string;
}

@Entity('station_holidays')
export class StationHoliday extends HolidayEntity {
  @Index()
  @Column({ type: 'uuid' })
  stationId: string;
}
