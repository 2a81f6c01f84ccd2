import { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import { AppModule } from './app.module';
import { checkRequestInput, JSON_MEDIA_TYPES, jsonBodiesOnly } from './common/http/request-input';
import { buildOpenApiDocument } from './common/http/openapi-document';
import { validationPipe } from './common/http/validation';
import { JsonLogger, requestContext } from './common/logger';
import { httpDrainOf } from './common/shutdown/http-drain';
import { AppConfig } from './config/app-config';

const REQUEST_ID = /^[\w.-]{1,100}$/;

/**
 * Builds the application with every cross-cutting convention; used by `main.ts` and by the tests,
 * so both run the same stack. The HTTP adapter is chosen here, and only here.
 */
export async function createApp(config: AppConfig, extraModules: Type[] = []): Promise<NestExpressApplication> {
  const logger = new JsonLogger(config.logLevel);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, extraModules), {
    logger,
    bufferLogs: false,
    bodyParser: false,
    // Literal segments win over parameters whatever the module order (`/customer/profile` before `/customer/:customerId`).
    routeResolutionStrategy: 'specificity',
  });
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  // Shutdown is main.ts's (shutdownOnSignals: drain HTTP, then app.close()); the drain tracks connections from the first one.
  httpDrainOf(app);
  app.enableCors({ exposedHeaders: ['X-Request-Id', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Idempotent-Replayed'] });

  // Request id: taken from X-Request-Id when sane, else generated; echoed back and put on every log line.
  app.use((req: { headers: Record<string, string | undefined> }, res: { setHeader(n: string, v: string): void }, next: () => void) => {
    const incoming = req.headers['x-request-id'];
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    requestContext.run({ requestId }, next);
  });
  // Body parsers after the request id, so that their errors carry it too. Bodies are JSON only (415
  // otherwise; multipart on the upload route of src/modules/media), nested at most MAX_JSON_DEPTH levels,
  // and no string of a body or query holds NUL or an unpaired surrogate (src/common/http/request-input.ts).
  app.use(jsonBodiesOnly([{ method: 'POST', path: '/api/v1/upload-media', type: 'multipart/form-data' }]));
  app.useBodyParser('json', { limit: '1mb', type: JSON_MEDIA_TYPES });
  app.use(checkRequestInput());
  app.useGlobalPipes(validationPipe);

  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('api/documentation', app, document, {
    jsonDocumentUrl: 'api/documentation-json',
    swaggerOptions: { oauth2RedirectUrl: '/api/oauth2-callback', persistAuthorization: true },
  });
  return app;
}
