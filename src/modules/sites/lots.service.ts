import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { InUseRegistry } from '../../common/records/in-use';
import { SiteService } from './site.service';
import { Scope } from '../../common/access/scope';
import { scopedQuery } from '../../common/access/tenant-policy';
import { Lot, LotHoliday } from './site.entity';
import { CreateLotDto, LotDto, UpdateLotDto } from './sites.dto';

/** Lots (yards): the shared site logic plus a capacity. */
@Injectable()
export class LotsService extends SiteService<Lot, LotHoliday, LotDto, CreateLotDto, UpdateLotDto> {
  // In use (409 on delete) while catalogue (assets based or located there), fleet (trucks based there)
  // or jobs (unfinished jobs from or to it) say so, through the in-use registry.
  constructor(ds: DataSource, inUse: InUseRegistry) {
    super(ds, { kind: 'lot', label: 'Lot', site: Lot, holiday: LotHoliday, parentKey: 'lotId' }, inUse);
  }

  protected kindValues(dto: CreateLotDto | UpdateLotDto): Partial<Lot> {
    return { capacity: dto.capacity };
  }

  /** The company's active lots (count) and those of them with a position, to serve an order from. */
  async servingCandidates(m: EntityManager, companyId: string): Promise<{ active: number; positioned: { id: string; latitude: number; longitude: number }[] }> {
    const lots = await scopedQuery(m, Lot, Scope.company(companyId), 's').select(['s.id', 's.latitude', 's.longitude']).andWhere('s.active').getMany();
    const positioned = lots.filter((l) => l.latitude !== null && l.longitude !== null) as { id: string; latitude: number; longitude: number }[];
    return { active: lots.length, positioned };
  }

  protected async render(_m: EntityManager, lots: Lot[]): Promise<LotDto[]> {
    return lots.map(LotDto.of);
  }
}
