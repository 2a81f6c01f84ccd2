import { Module, OnModuleInit } from '@nestjs/common';
import { ActorResolver } from '../../common/access/jwt.strategy';
import { MembersModule } from '../customers';
import { DriversController } from './drivers.controller';
import { CALLER_DRIVER_SQL, DriverRepository } from './driver.repository';
import { DriversService } from './drivers.service';

@Module({ imports: [MembersModule], controllers: [DriversController], providers: [DriversService, DriverRepository], exports: [DriversService] })
export class DriversModule implements OnModuleInit {
  constructor(private readonly actors: ActorResolver) {}

  /** The driver's part of the caller's statement (src/common/access/jwt.strategy.ts `CallerSql`). */
  onModuleInit(): void {
    this.actors.registerCallerSql('driver', CALLER_DRIVER_SQL);
  }
}
