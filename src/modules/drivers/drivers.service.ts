import { Injectable, OnModuleInit } from '@nestjs/common';
import { MemberProfiles, UsersService } from '../users';
import { CompaniesService } from '../companies';
import { ApiError } from '../../common/http/api-error';
import { DataSource } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { Page } from '../../common/http/envelope';
import { MemberDirectory } from '../customers';
import type { UserStatus } from '../users';
import { DriverDto, DriverListQuery, DriverProfileDto, UpdateDriverDto, UpdateDriverProfileDto } from './driver.dto';
import { Driver } from './driver.entity';

/** Drivers as the company manages them, and a driver's own profile. */
@Injectable()
export class DriversService implements OnModuleInit {
  readonly directory: MemberDirectory<Driver>;

  constructor(
    private readonly ds: DataSource,
    users: UsersService,
    private readonly profiles: MemberProfiles,
    private readonly companies: CompaniesService,
  ) {
    this.directory = new MemberDirectory(Driver, 'driver', 'Driver', users);
  }

  onModuleInit(): void {
    // A driver who registers by themself (none today: /auth/register takes customers) must name an active company.
    this.profiles.register(
      'driver',
      async (m, user) => void (await m.insert(Driver, { id: user.id, companyId: user.companyId })),
      async (m, companyId) => {
        if (!(await this.companies.isActive(companyId, m))) throw ApiError.validation({ company_id: ['does not name an active company'] });
      },
    );
  }

  async show(companyId: string, id: string): Promise<DriverDto> {
    return DriverDto.of(await this.directory.find(this.ds.manager, Scope.company(companyId), id));
  }

  list(companyId: string, query: DriverListQuery): Promise<Page<DriverDto>> {
    return this.directory.list(this.ds.manager, companyId, query, DriverDto.of);
  }

  async update(actor: Actor, companyId: string, id: string, dto: UpdateDriverDto): Promise<DriverDto> {
    const saved = await this.ds.transaction(async (m) => {
      const driver = await this.directory.find(m, Scope.company(companyId), id, true);
      return this.directory.update(m, actor.id, driver, dto, { licenseNumber: dto.license_number, licenseExpiresOn: dto.license_expires_on, hiredOn: dto.hired_on, notes: dto.notes });
    });
    return DriverDto.of(saved);
  }

  async setStatus(actor: Actor, companyId: string, id: string, to: UserStatus): Promise<DriverDto> {
    return DriverDto.of(await this.ds.transaction((m) => this.directory.setStatus(m, actor.id, companyId, id, to)));
  }

  async updateProfile(actor: Actor, companyId: string, dto: UpdateDriverProfileDto): Promise<DriverProfileDto> {
    const saved = await this.ds.transaction(async (m) => {
      const driver = await this.directory.find(m, Scope.of(actor), actor.id, true);
      return this.directory.update(m, actor.id, driver, dto, { licenseNumber: dto.license_number, licenseExpiresOn: dto.license_expires_on });
    });
    return DriverProfileDto.of(saved);
  }
}
