import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { Page } from '../../common/http/envelope';
import { recordEvents } from '../../common/outbox/outbox';
import { Loaded, MemberDirectory } from '../customers/member-directory';
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
      return this.apply(m, actor, driver, dto, { licenseNumber: dto.license_number, licenseExpiresOn: dto.license_expires_on, hiredOn: dto.hired_on, notes: dto.notes });
    });
    return DriverDto.of(saved);
  }

  async setStatus(actor: Actor, companyId: string, id: string, to: UserStatus): Promise<DriverDto> {
    return DriverDto.of(await this.ds.transaction((m) => this.directory.setStatus(m, actor.id, companyId, id, to)));
  }

  async updateProfile(actor: Actor, companyId: string, dto: UpdateDriverProfileDto): Promise<DriverProfileDto> {
    const saved = await this.ds.transaction(async (m) => {
      const driver = await this.directory.find(m, companyId, actor.id, true);
      return this.apply(m, actor, driver, dto, { licenseNumber: dto.license_number, licenseExpiresOn: dto.license_expires_on });
    });
    return DriverProfileDto.of(saved);
  }

  /** Applies user and profile changes (undefined = unchanged), records `driver.updated` when anything changed. */
  private async apply(
    m: EntityManager,
    actor: Actor,
    driver: Loaded<Driver>,
    user: { name?: string; email?: string; phone?: string | null },
    profile: Partial<Pick<Driver, 'licenseNumber' | 'licenseExpiresOn' | 'hiredOn' | 'notes'>>,
  ): Promise<Loaded<Driver>> {
    const changed = await this.directory.updateUser(m, driver.user, user);
    const patch = Object.fromEntries(Object.entries(profile).filter(([k, v]) => v !== undefined && v !== driver[k as keyof Driver]));
    if (Object.keys(patch).length) {
      await m.update(Driver, { id: driver.id }, patch);
      changed.push(...Object.keys(patch).map((k) => k.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase())));
    }
    if (!changed.length) return driver;
    await recordEvents(m, { type: 'driver.updated', aggregateType: 'driver', aggregateId: driver.id, companyId: driver.companyId, actorId: actor.id, payload: { fields: changed } });
    return this.directory.find(m, driver.companyId, driver.id);
  }
}
