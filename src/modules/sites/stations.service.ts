import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { InUseRegistry } from '../../common/records/in-use';
import { WasteTypesService } from '../catalogue';
import { SiteService } from './site.service';
import { Station, StationHoliday } from './site.entity';
import { CreateStationDto, StationDto, StationQuery, UpdateStationDto, WasteTypeRefDto } from './sites.dto';

/** Stations (dump sites): the shared site logic plus accepted waste types and a dump cost. */
@Injectable()
export class StationsService extends SiteService<Station, StationHoliday, StationDto, CreateStationDto, UpdateStationDto> implements OnModuleInit {
  // In use (409 on delete) while catalogue (assets located there) says so, through the in-use registry.
  // (Jobs register no station check: the jobs table has no station column yet; dispatch adds one.)
  constructor(
    ds: DataSource,
    inUse: InUseRegistry,
    private readonly wasteTypes: WasteTypesService,
  ) {
    super(ds, { kind: 'station', label: 'Station', site: Station, holiday: StationHoliday, parentKey: 'stationId' }, inUse);
  }

  /** A live station that accepts a waste type keeps it from deletion. */
  onModuleInit(): void {
    this.inUse.register('waste_type', 'sites', 'a live station accepting the waste type', async (m, id) => {
      const [hit] = await m.query<{ '?column?': number }[]>(
        `SELECT 1 FROM station_waste_types sw JOIN stations st ON st.id = sw.station_id AND st.deleted_at IS NULL WHERE sw.waste_type_id = $1 LIMIT 1`,
        [id],
      );
      return !!hit;
    });
  }

  protected kindValues(dto: CreateStationDto | UpdateStationDto): Partial<Station> {
    return { dumpCostPerTonneAmount: dto.dump_cost_per_tonne_amount };
  }

  /** The accepted waste types must be the company's live ones (422 otherwise). */
  protected async validate(m: EntityManager, companyId: string, dto: CreateStationDto | UpdateStationDto): Promise<void> {
    if (dto.waste_type_ids?.length) {
      const ids = dto.waste_type_ids.map((id) => id.toLowerCase());
      const known = await this.wasteTypes.liveIds(m, companyId, ids);
      const missing = ids.filter((id) => !known.has(id));
      if (missing.length) throw ApiError.validation({ waste_type_ids: missing.map((id) => `waste type ${id} not found`) });
    }
  }

  protected async afterSave(m: EntityManager, station: Station, dto: CreateStationDto | UpdateStationDto): Promise<void> {
    if (dto.waste_type_ids === undefined) return;
    await m.query(`DELETE FROM station_waste_types WHERE station_id = $1`, [station.id]);
    if (dto.waste_type_ids.length) {
      await m.query(
        `INSERT INTO station_waste_types (station_id, waste_type_id, company_id) SELECT $1, unnest($2::uuid[]), $3`,
        [station.id, dto.waste_type_ids.map((id) => id.toLowerCase()), station.companyId],
      );
    }
  }

  protected async filter(_m: EntityManager, qb: SelectQueryBuilder<Station>, query: StationQuery): Promise<void> {
    if (query.waste_type_id) {
      qb.andWhere(`EXISTS (SELECT 1 FROM station_waste_types swt WHERE swt.station_id = s.id AND swt.waste_type_id = :wasteTypeId)`, { wasteTypeId: query.waste_type_id.toLowerCase() });
    }
  }

  protected async render(m: EntityManager, stations: Station[]): Promise<StationDto[]> {
    const byStation = new Map<string, WasteTypeRefDto[]>();
    if (stations.length) {
      const links: { station_id: string; waste_type_id: string }[] = await m.query(`SELECT station_id, waste_type_id FROM station_waste_types WHERE station_id = ANY($1::uuid[])`, [
        stations.map((s) => s.id),
      ]);
      // Names through catalogue, by name then id; each station's list keeps that order.
      for (const w of await this.wasteTypes.refs(m, [...new Set(links.map((l) => l.waste_type_id))])) {
        for (const l of links) if (l.waste_type_id === w.id) (byStation.get(l.station_id) ?? byStation.set(l.station_id, []).get(l.station_id)!).push(w);
      }
    }
    return stations.map((s) => StationDto.of(s, byStation.get(s.id) ?? []));
  }
}
