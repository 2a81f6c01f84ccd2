import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { tableExists } from './site-references';
import { SiteService } from './site.service';
import { Station, StationHoliday } from './site.entity';
import { CreateStationDto, StationDto, StationQuery, UpdateStationDto, WasteTypeRefDto } from './sites.dto';

/** Stations (dump sites): the shared site logic plus accepted waste types and a dump cost. */
@Injectable()
export class StationsService extends SiteService<Station, StationHoliday, StationDto, CreateStationDto, UpdateStationDto> {
  constructor(ds: DataSource) {
    super(ds, {
      kind: 'station',
      label: 'Station',
      site: Station,
      holiday: StationHoliday,
      parentKey: 'stationId',
      references: [
        { table: 'assets', column: 'location_id', where: `location_type = 'station'` },
        { table: 'jobs', column: 'station_id' },
      ],
    });
  }

  protected async applyFields(m: EntityManager, companyId: string, station: Station, dto: CreateStationDto | UpdateStationDto): Promise<void> {
    if (dto.dump_cost_per_tonne_amount !== undefined) station.dumpCostPerTonneAmount = dto.dump_cost_per_tonne_amount;
    if (dto.waste_type_ids?.length) {
      const ids = dto.waste_type_ids.map((id) => id.toLowerCase());
      const found: { id: string }[] = (await tableExists(m, 'waste_types'))
        ? await m.query(`SELECT id FROM waste_types WHERE company_id = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL`, [companyId, ids])
        : [];
      const known = new Set(found.map((r) => r.id));
      const missing = ids.filter((id) => !known.has(id));
      if (missing.length) throw ApiError.validation({ waste_type_ids: missing.map((id) => `waste type ${id} not found`) });
    }
  }

  protected async afterSave(m: EntityManager, station: Station, dto: CreateStationDto | UpdateStationDto): Promise<void> {
    if (dto.waste_type_ids === undefined) return;
    if (!(await tableExists(m, 'station_waste_types'))) {
      if (dto.waste_type_ids.length) throw ApiError.validation({ waste_type_ids: ['waste types are not available yet'] });
      return;
    }
    await m.query(`DELETE FROM station_waste_types WHERE station_id = $1`, [station.id]);
    if (dto.waste_type_ids.length) {
      await m.query(
        `INSERT INTO station_waste_types (station_id, waste_type_id, company_id) SELECT $1, unnest($2::uuid[]), $3`,
        [station.id, dto.waste_type_ids.map((id) => id.toLowerCase()), station.companyId],
      );
    }
  }

  protected async filter(m: EntityManager, qb: SelectQueryBuilder<Station>, query: StationQuery): Promise<void> {
    if (query.waste_type_id && !(await tableExists(m, 'station_waste_types'))) qb.andWhere('1 = 0');
    else if (query.waste_type_id) {
      qb.andWhere(`EXISTS (SELECT 1 FROM station_waste_types swt WHERE swt.station_id = s.id AND swt.waste_type_id = :wasteTypeId)`, { wasteTypeId: query.waste_type_id.toLowerCase() });
    }
  }

  protected async render(m: EntityManager, stations: Station[]): Promise<StationDto[]> {
    const byStation = new Map<string, WasteTypeRefDto[]>();
    if (stations.length && (await tableExists(m, 'station_waste_types'))) {
      const rows: { station_id: string; id: string; name: string }[] = await m.query(
        `SELECT swt.station_id, w.id, w.name FROM station_waste_types swt JOIN waste_types w ON w.id = swt.waste_type_id
          WHERE swt.station_id = ANY($1::uuid[]) ORDER BY w.name, w.id`,
        [stations.map((s) => s.id)],
      );
      for (const r of rows) (byStation.get(r.station_id) ?? byStation.set(r.station_id, []).get(r.station_id)!).push({ id: r.id, name: r.name });
    }
    return stations.map((s) => StationDto.of(s, byStation.get(s.id) ?? []));
  }
}
