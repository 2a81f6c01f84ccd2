import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { Page } from '../../common/http/envelope';
import { MemberDirectory } from '../customers/member-directory';
import { UserStatus } from '../users/user.entity';
import { DriverDto, DriverListQuery, DriverProfileDto, UpdateDriverDto, UpdateDriverProfileDto } from './driver.dto';
import { Driver } from './driver.entity';

/** Drivers as the company manages them, and a driver's own profile. */
@Injectable()
export class DriversService {
  readonly directory = new MemberDirectory(Driver, 'driver', 'Driver');

  constructor(private readonly ds: DataSource) {}

  async show(companyId: string, id: string): Promise<DriverDto> {
    return DriverDto.of(await this.directory.find(this.ds.manager, companyId, id));
  }

  list(companyId: string, query: DriverListQuery): Promise<Page<DriverDto>> {
    return this.directory.list(this.ds.manager, companyId, query, DriverDto.of);
  }

  async update(actor: Actor, companyId: string, id: string, dto: UpdateDriverDto): Promise<DriverDto> {
    const saved = await this.ds.transaction(async (m) => {
      const driver = await this.directory.find(m, companyId, id, true);
      return this.directory.update(m, actor.id, driver, dto, { licenseNumber: dto.license_number, licenseExpiresOn: dto.license_expires_on, hiredOn: dto.hired_on, notes: dto.notes });
    });
    return DriverDto.of(saved);
  }

  async setStatus(actor: Actor, companyId: string, id: string, to: UserStatus): Promise<DriverDto> {
    return DriverDto.of(await this.ds.transaction((m) => this.directory.setStatus(m, actor.id, companyId, id, to)));
  }

  async updateProfile(actor: Actor, companyId: string, dto: UpdateDriverProfileDto): Promise<DriverProfileDto> {
    const saved = await this.ds.transaction(async (m) => {
      const driver = await this.directory.find(m, companyId, actor.id, true);
      return this.directory.update(m, actor.id, driver, dto, { licenseNumber: dto.license_number, licenseExpiresOn: dto.license_expires_on });
    });
    return DriverProfileDto.of(saved);
  }
}
