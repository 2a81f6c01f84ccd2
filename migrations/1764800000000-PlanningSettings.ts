import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #26: what planning a day and arrival times need from the company: when drivers set off, how long
 * a shift is, how fast a truck goes on average, the minutes spent at a stop per job kind and at a station,
 * and how late an arrival may slip before the customer is told again.
 */
export class PlanningSettings1764800000000 implements MigrationInterface {
  name = 'PlanningSettings1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE company_settings
        ADD COLUMN shift_start_time text NOT NULL DEFAULT '07:00'
          CONSTRAINT company_settings_shift_start_time_check CHECK (shift_start_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
        ADD COLUMN shift_minutes int NOT NULL DEFAULT 600
          CONSTRAINT company_settings_shift_minutes_check CHECK (shift_minutes BETWEEN 30 AND 1440),
        ADD COLUMN average_speed_kmh int NOT NULL DEFAULT 40
          CONSTRAINT company_settings_average_speed_kmh_check CHECK (average_speed_kmh BETWEEN 5 AND 130),
        ADD COLUMN service_minutes_delivery int NOT NULL DEFAULT 15
          CONSTRAINT company_settings_service_minutes_delivery_check CHECK (service_minutes_delivery BETWEEN 0 AND 600),
        ADD COLUMN service_minutes_pickup int NOT NULL DEFAULT 15
          CONSTRAINT company_settings_service_minutes_pickup_check CHECK (service_minutes_pickup BETWEEN 0 AND 600),
        ADD COLUMN service_minutes_swap int NOT NULL DEFAULT 25
          CONSTRAINT company_settings_service_minutes_swap_check CHECK (service_minutes_swap BETWEEN 0 AND 600),
        ADD COLUMN service_minutes_dump_return int NOT NULL DEFAULT 20
          CONSTRAINT company_settings_service_minutes_dump_return_check CHECK (service_minutes_dump_return BETWEEN 0 AND 600),
        ADD COLUMN service_minutes_relocate int NOT NULL DEFAULT 20
          CONSTRAINT company_settings_service_minutes_relocate_check CHECK (service_minutes_relocate BETWEEN 0 AND 600),
        ADD COLUMN station_minutes int NOT NULL DEFAULT 20
          CONSTRAINT company_settings_station_minutes_check CHECK (station_minutes BETWEEN 0 AND 600),
        ADD COLUMN arrival_slip_minutes int NOT NULL DEFAULT 15
          CONSTRAINT company_settings_arrival_slip_minutes_check CHECK (arrival_slip_minutes BETWEEN 1 AND 600)
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE company_settings
        DROP COLUMN shift_start_time, DROP COLUMN shift_minutes, DROP COLUMN average_speed_kmh,
        DROP COLUMN service_minutes_delivery, DROP COLUMN service_minutes_pickup, DROP COLUMN service_minutes_swap,
        DROP COLUMN service_minutes_dump_return, DROP COLUMN service_minutes_relocate, DROP COLUMN station_minutes,
        DROP COLUMN arrival_slip_minutes
    `);
  }
}
