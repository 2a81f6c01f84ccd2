import { Injectable, OnModuleInit } from '@nestjs/common';
import { Scope, SystemReach } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { InUseRegistry } from '../../common/records/in-use';
import { UnitOfWork } from '../../database/unit-of-work';
import { WasteTypesService } from '../catalogue';
import { SiteService } from './site.service';
import { Station, StationHoliday } from './site.entity';
import { StationRepository } from './site.repository';
import { siteDay, type StationDay } from './lots.service';
import { CreateStationDto, StationDto, UpdateStationDto, WasteTypeRefDto } from './sites.dto';

/** The in-use registry names the waste type by id only (its checks take no scope). */
const IN_USE_CHECK = SystemReach.of('an in-use check (the registry names the record by id)');

/** Stations (dump sites): the shared site logic plus accepted waste types and a dump cost. */
@Injectable()
export class StationsService extends SiteService<Station, StationHoliday, StationDto, CreateStationDto, UpdateStationDto> implements OnModuleInit {
  // In use (409 on delete) while catalogue (assets located there) says so, through the in-use registry.
  // (Jobs register no station check: the jobs table has no station column yet; dispatch adds one.)
  constructor(
    uow: UnitOfWork,
    private readonly stations: StationRepository,
    private readonly inUse: InUseRegistry,
    private readonly wasteTypes: WasteTypesService,
  ) {
    super(uow, stations);
  }

  /** A live station that accepts a waste type keeps it from deletion (the check runs in the deleting unit). */
  onModuleInit(): void {
    this.inUse.register('waste_type', 'sites', 'a live station accepting the waste type', (_m, id) => this.stations.anyLiveAccepts(IN_USE_CHECK, id));
  }

  /** Whether the station (the scope's) accepts the waste type (dispatch: a station ticket must be for waste the station takes). One statement. */
  accepts(scope: Scope, stationId: string, wasteTypeId: string): Promise<boolean> {
    return this.stations.accepts(stationId, wasteTypeId, scope);
  }

  /** The scope's active stations on a dispatch day (name, position, open that day or why not, accepted waste types), by name. One statement. */
  async forDay(scope: Scope, date: string): Promise<StationDay[]> {
    const rows = await this.stations.forDay(scope, date);
    return rows.map((r) => ({ ...siteDay(r, date), wasteTypeIds: r.waste_type_ids ? r.waste_type_ids.split(',') : [] }));
  }

  protected kindValues(dto: CreateStationDto | UpdateStationDto): Partial<Station> {
    return { dumpCostPerTonneAmount: dto.dump_cost_per_tonne_amount };
  }

  /** The accepted waste types must be the company's live ones (422 otherwise). */
  protected async validate(scope: Scope, dto: CreateStationDto | UpdateStationDto): Promise<void> {
    if (dto.waste_type_ids?.length) {
      const ids = dto.waste_type_ids.map((id) => id.toLowerCase());
      // Catalogue's method still takes a manager: the open unit's.
      const known = await this.wasteTypes.liveIds(scope, ids);
      const missing = ids.filter((id) => !known.has(id));
      if (missing.length) throw ApiError.validation({ waste_type_ids: missing.map((id) => `waste type ${id} not found`) });
    }
  }

  protected async afterSave(scope: Scope, station: Station, dto: CreateStationDto | UpdateStationDto): Promise<void> {
    if (dto.waste_type_ids === undefined) return;
    await this.stations.replaceWasteTypes(scope, station.id, dto.waste_type_ids.map((id) => id.toLowerCase()));
  }

  protected async render(scope: Scope, stations: Station[]): Promise<StationDto[]> {
    const byStation = new Map<string, WasteTypeRefDto[]>();
    if (stations.length) {
      const links = await this.stations.wasteTypeLinks(scope, stations.map((s) => s.id));
      // Names through catalogue, by name then id; each station's list keeps that order.
      for (const w of await this.wasteTypes.refs(scope, [...new Set(links.map((l) => l.waste_type_id))])) {
        for (const l of links) if (l.waste_type_id === w.id) (byStation.get(l.station_id) ?? byStation.set(l.station_id, []).get(l.station_id)!).push(w);
      }
    }
    return stations.map((s) => StationDto.of(s, byStation.get(s.id) ?? []));
  }
}
