import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module } from '@nestjs/common';
import { CompaniesController } from './companies.controller';
import { CompaniesService } from './companies.service';
import { CompanyRepository } from './company.repository';
import { UsersModule } from '../users';

@Module({ imports: [UsersModule], controllers: [CompaniesController], providers: [CompanyRepository, CompaniesService], exports: [CompaniesService] })
export class CompaniesModule {}
