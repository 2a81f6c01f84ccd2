import { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import { AppModule } from './app.module';
import { ACCESS_RULES, ACCESS_CODES } from './common/access/access-codes';
import { validationPipe } from './common/http/validation';
import { JsonLogger, requestContext } from './common/logger';
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
  app.enableShutdownHooks();
  app.enableCors({ exposedHeaders: ['X-Request-Id', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] });

  // Request id: taken from X-Request-Id when sane, else generated; echoed back and put on every log line.
  app.use((req: { headers: Record<string, string | undefined> }, res: { setHeader(n: string, v: string): void }, next: () => void) => {
    const incoming = req.headers['x-request-id'];
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    requestContext.run({ requestId }, next);
  });
  // Body parsers after the request id, so that their errors carry it too.
  app.useBodyParser('json', { limit: '1mb' });
  app.useBodyParser('urlencoded', { limit: '1mb', extended: true });
  app.useGlobalPipes(validationPipe);

  const codes = ACCESS_CODES.map((c) => `- \`${c}\`: ${ACCESS_RULES[c].description}`).join('\n');
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('HaulOps API')
      .setDescription(
        'Operations platform for waste haulers: companies, their customers and drivers, and platform administrators.\n\n' +
          'Every response is `{"success": true, "data": …}` (lists add `meta`) or the error envelope ' +
          '`{"success": false, "message", "code", "errors"?, "request_id"}`. Money is in integer minor units, ' +
          'rates in basis points. Each operation names its access code in `x-access-code`:\n\n' +
          codes,
      )
      .setVersion('1')
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer')
      .build(),
  );
  SwaggerModule.setup('api/documentation', app, document, {
    jsonDocumentUrl: 'api/documentation-json',
    swaggerOptions: { oauth2RedirectUrl: '/api/oauth2-callback', persistAuthorization: true },
  });
  return app;
}
