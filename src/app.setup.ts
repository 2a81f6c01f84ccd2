import { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { json } from 'body-parser';
import cors from 'cors';
import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppModule } from './app.module';
import { EnvelopeExpressAdapter } from './common/http/envelope';
import { JSON_MEDIA_TYPES, requestInput } from './common/http/request-input';
import { buildOpenApiDocument } from './common/http/openapi-document';
import { validationPipe } from './common/http/validation';
import { accessLogger, appLogger, PinoNestLogger } from './common/logger';
import { corsHeadersOfActualRequests, fixedHeadersOf, requestEdge } from './common/http/request-edge';
import { Metrics } from './common/metrics/metrics';
import { setPasswordHashCost } from './common/security/passwords';
import { httpDrainOf } from './common/shutdown/http-drain';
import { AppConfig, loadConfig } from './config/app-config';

/**
 * Builds the application with every cross-cutting convention; used by `main.ts` and by the tests,
 * so both run the same stack. The HTTP adapter is chosen here, and only here.
 *
 * `openApiDocument`: the document of these same routes, built beforehand by `previewOpenApiDocument`
 * (the test run builds it once instead of once per test app: test/support/global-setup.ts; a test checks
 * that it equals the one the app builds itself). Without it the document is built on the first request of
 * /api/documentation or /api/documentation-json, not at start.
 */
export async function createApp(config: AppConfig, extraModules: Type[] = [], options: { openApiDocument?: OpenAPIObject } = {}): Promise<NestExpressApplication> {
  setPasswordHashCost(config.passwordHashCost);
  const pinoLogger = appLogger(config);
  const logger = new PinoNestLogger(pinoLogger);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, extraModules), new EnvelopeExpressAdapter(), {
    logger,
    bufferLogs: false,
    bodyParser: false,
    // Literal segments win over parameters whatever the module order (`/customer/profile` before `/customer/:customerId`).
    routeResolutionStrategy: 'specificity',
    // A failed start is thrown to the caller (main.ts: exit 75 for a data folder in use, 1 otherwise) instead of exiting here.
    abortOnError: false,
  });
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  // Shutdown is main.ts's (shutdownOnSignals: drain HTTP, then app.close()); the drain tracks connections from the first one.
  httpDrainOf(app);
  // CORS: the middleware answers browser preflights (OPTIONS with Access-Control-Request-Method) itself, without a
  // token; any other OPTIONS request goes on to the routes (the OPTIONS routes of /psp/onboarding answer `Allow`).
  // On every other request its headers are fixed (any origin): the request edge sets them, read once here.
  const corsOptions = { exposedHeaders: ['X-Request-Id', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Idempotent-Replayed'] };
  const [preflight, passOn] = [cors({ ...corsOptions, preflightContinue: false }), cors({ ...corsOptions, preflightContinue: true })];
  const corsHeaders = corsHeadersOfActualRequests(cors(corsOptions));
  app.use((req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) =>
    req.method !== 'OPTIONS' ? next() : (req.headers['access-control-request-method'] ? preflight : passOn)(req, res, next),
  );

  // Security headers (helmet's, fixed: read once, set by the request edge); the API documentation pages
  // (Swagger UI, its OAuth2 redirect page) need inline scripts and styles, the API none.
  const strict = [...fixedHeadersOf(helmet()), ...corsHeaders];
  const docs = [...fixedHeadersOf(helmet({ contentSecurityPolicy: { directives: { 'script-src': ["'self'", "'unsafe-inline'"], 'style-src': ["'self'", "'unsafe-inline'", 'https:'], 'img-src': ["'self'", 'data:', 'https:'] } } })), ...corsHeaders];
  // The request edge (src/common/http/request-edge.ts): the request id (from X-Request-Id when sane, else
  // generated; echoed back) on every log line, the security headers, then one access-log line per request and
  // the request metrics (GET /metrics) from one listener.
  const metrics = app.get(Metrics);
  app.use(
    requestEdge({
      accessLog: accessLogger(config),
      observe: (method, route, status, seconds) => metrics.observe(method, route, status, seconds),
      headersFor: (path) => (path.startsWith('/api/documentation') || path.startsWith('/api/oauth2-callback') ? docs : strict),
    }),
  );
  // Body parsers after the request id, so that their errors carry it too. Bodies are JSON only (415
  // otherwise; multipart on the upload route of src/modules/media), nested at most MAX_JSON_DEPTH levels,
  // and no string of a body or query holds NUL or an unpaired surrogate (src/common/http/request-input.ts).
  // The inbound payment webhooks verify their signature over the exact bytes received (`req.rawBody`;
  // body-parser's `verify`).
  const keepWebhookRawBody = {
    verify: (req: { url?: string; rawBody?: Buffer }, _res: unknown, buf: Buffer) => {
      if (req.url?.startsWith('/api/v1/psp/webhooks/')) req.rawBody = buf;
    },
  };
  app.use(
    requestInput({
      exceptions: [{ method: 'POST', path: '/api/v1/upload-media', type: 'multipart/form-data' }],
      parseJson: json({ limit: '1mb', type: JSON_MEDIA_TYPES, ...keepWebhookRawBody }),
    }),
  );
  app.useGlobalPipes(validationPipe);

  // Without a prebuilt document, it is built on the first request of the documentation (about 0.4 s
  // of the start otherwise); the routes are all registered by then.
  const document = options.openApiDocument ?? (() => buildOpenApiDocument(app));
  SwaggerModule.setup('api/documentation', app, document, {
    jsonDocumentUrl: 'api/documentation-json',
    swaggerOptions: { oauth2RedirectUrl: '/api/oauth2-callback', persistAuthorization: true },
  });
  return app;
}

/**
 * The OpenAPI document of the app's routes without starting it: Nest's preview mode builds the module
 * graph and reads the routes' metadata but instantiates no provider, so nothing connects (no database).
 * `dataDir`: a throwaway folder for the configuration's DATA_DIR. Used by `npm run lint:openapi` and
 * the test run's global setup.
 */
export async function previewOpenApiDocument(dataDir: string): Promise<OpenAPIObject> {
  const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'openapi-preview-'.padEnd(48, 'x'), LOG_LEVEL: 'silent', OUTBOX_RELAY_ENABLED: 'false' });
  config.embeddedPath = 'memory://';
  const app = await NestFactory.create(AppModule.forRoot(config), { preview: true, logger: false, abortOnError: false });
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}
