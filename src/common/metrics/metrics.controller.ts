import { Controller, Get, Header, Headers, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { timingSafeEqual } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { Access } from '../access/access.decorator';
import { ApiError } from '../http/api-error';
import { ApiErrors } from '../http/openapi';
import { Metrics } from './metrics';

/** Extension (not in the seed): Prometheus scrape endpoint. */
@ApiTags('Health')
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    private readonly config: AppConfig,
  ) {}

  @Get('metrics')
  @Access('PUB')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Metrics in Prometheus format',
    description:
      'Extension (not in the seed). Request durations by route pattern and status (`http_request_duration_seconds`), event-relay lag and backlog ' +
      '(`outbox_relay_lag_seconds`, `outbox_relay_backlog_events`), database pool (`db_pool_connections`), and the process. ' +
      'With METRICS_TOKEN set, it needs `Authorization: Bearer <METRICS_TOKEN>` (else 401).',
  })
  @ApiResponse({ status: 200, description: 'Prometheus text exposition format 0.0.4.', content: { 'text/plain': { schema: { type: 'string', example: '# TYPE http_request_duration_seconds histogram' } } } })
  @ApiErrors({ 401: [] })
  async scrape(@Headers('authorization') authorization: string | undefined): Promise<StreamableFile> {
    const token = this.config.metricsToken;
    if (token && !sameSecret(authorization ?? '', `Bearer ${token}`)) throw ApiError.unauthorized('A valid metrics token is required.', 'UNAUTHENTICATED');
    const text = Buffer.from(await this.metrics.registry.metrics());
    return new StreamableFile(text, { type: this.metrics.registry.contentType, length: text.length });
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
