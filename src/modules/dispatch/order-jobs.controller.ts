import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { OrderJobDto } from './order-jobs.dto';
import { OrderJobsService } from './order-jobs.service';

@ApiTags('Orders')
@Controller('api/v1/orders')
export class OrderJobsController {
  constructor(private readonly orderJobs: OrderJobsService) {}

  @Get(':order/jobs')
  @Access('TOK')
  @ApiIdParam('order')
  @Endpoint({
    summary: "An order's jobs for whoever has a part in it: its company, its customer, or a driver with a job on it (anyone else 404)",
    description:
      'Oldest first (by date, then creation). The customer sees each job\'s type, status and dates, the driver\'s first name, the truck\'s plate and name, and the latest location only of a job in progress; ' +
      'the company and the order\'s drivers also see `dispatch` (ids, sequence, notes), the driver\'s and truck\'s ids and every job\'s latest location.',
    type: OrderJobDto,
    array: true,
    errors: [404],
    codes: { 403: ['NO_COMPANY'] },
  })
  list(@CurrentActor() actor: Actor, @IdParam('order') id: string) {
    return this.orderJobs.list(actor, id);
  }
}
