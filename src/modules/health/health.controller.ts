import { Controller, Get } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Access } from '../../common/access/access.decorator';
import { ApiError } from '../../common/http/api-error';
import { Endpoint } from '../../common/http/openapi';

class HealthDto {
  @ApiProperty({ example: 'ok' }) status: string;
  @ApiProperty({ example: 12.5, description: 'Seconds since the process started.' }) uptime: number;
}

class ReadyDto {
  @ApiProperty({ example: 'ready' }) status: string;
  @ApiProperty({ example: 'postgres', enum: ['postgres', 'embedded'] }) database: string;
}

/** Documented extensions outside the seed: liveness and readiness probes. */
@ApiTags('Health')
@Controller()
export class HealthController {
  constructor(private readonly ds: DataSource) {}

  @Get('health')
  @Access('PUB')
  @Endpoint({ summary: 'Liveness: the process answers', description: 'Extension (not in the seed).', type: HealthDto })
  health(): HealthDto {
    return { status: 'ok', uptime: Math.round(process.uptime() * 10) / 10 };
  }

  @Get('ready')
  @Access('PUB')
  @Endpoint({ summary: 'Readiness: the database is reachable', description: 'Extension (not in the seed). 503 when the database does not answer.', type: ReadyDto, errors: [503] })
  async ready(): Promise<ReadyDto> {
    try {
      await this.ds.query('SELECT 1');
    } catch {
      throw new ApiError(503, 'DATABASE_UNAVAILABLE', 'The database is not reachable.');
    }
    const embedded = !(this.ds.options as { url?: string }).url;
    return { status: 'ready', database: embedded ? 'embedded' : 'postgres' };
  }
}
