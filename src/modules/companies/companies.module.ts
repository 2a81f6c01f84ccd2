import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module, OnModuleInit } from '@nestjs/common';
import { ActorResolver } from '../../common/access/jwt.strategy';
import { CompaniesController } from './companies.controller';
import { CompaniesService } from './companies.service';
import { CALLER_COMPANY_SQL, CompanyRepository } from './company.repository';
import { UsersModule } from '../users';

@Module({ imports: [UsersModule], controllers: [CompaniesController], providers: [CompanyRepository, CompaniesService], exports: [CompaniesService] })
export class CompaniesModule implements OnModuleInit {
  constructor(private readonly actors: ActorResolver) {}

  /** The company's part of the caller's statement (src/common/access/jwt.strategy.ts `CallerSql`). */
  onModuleInit(): void {
    this.actors.registerCallerSql('company', CALLER_COMPANY_SQL);
  }
}
