import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SiteService } from './site.service';
import { Lot, LotHoliday } from './site.entity';
import { CreateLotDto, LotDto, UpdateLotDto } from './sites.dto';

/** Lots (yards): the shared site logic plus a capacity. */
@Injectable()
export class LotsService extends SiteService<Lot, LotHoliday, LotDto, CreateLotDto, UpdateLotDto> {
  constructor(ds: DataSource) {
    super(ds, {
      kind: 'lot',
      label: 'Lot',
      site: Lot,
      holiday: LotHoliday,
      parentKey: 'lotId',
      references: [
        { table: 'assets', column: 'home_lot_id' },
        { table: 'assets', column: 'location_id', where: `location_type = 'lot'` },
        { table: 'trucks', column: 'home_lot_id' },
        { table: 'jobs', column: 'lot_id' },
      ],
    });
  }

  protected async applyFields(_m: EntityManager, _companyId: string, lot: Lot, dto: CreateLotDto | UpdateLotDto): Promise<void> {
    if (dto.capacity !== undefined) lot.capacity = dto.capacity;
  }

  protected async render(_m: EntityManager, lots: Lot[]): Promise<LotDto[]> {
    return lots.map(LotDto.of);
  }
}
