// The production floor (issue #24): the Nest floor (bench/floor/: a JWT-guarded findOne by primary key on
// `users`) plus what any production NestJS service of this size runs on every request, and nothing of ours:
// passport-jwt through @nestjs/passport (AuthGuard('jwt')), a global ThrottlerGuard (in-memory storage, a
// limit never reached), a global ValidationPipe (whitelist, forbidNonWhitelisted, transform; the id param
// checked as a UUID), an interceptor wrapping the response in `{ data }`, helmet, CORS, pino-http (its default
// serialisers, credentials redacted; stdout, written asynchronously like the app's logger, at LOG_LEVEL, default info), a prom-client request histogram
// (method, route, status), and the seed's routes (../shared/spec/routes.tsv, 370) mounted as empty handlers
// on controllers, one per first path segment; the measured route is mounted after the first half of them.
// Env: PORT, DATABASE_URL, JWT_SECRET, LOG_LEVEL, ROUTES_TSV (default ../shared/spec/routes.tsv).
import 'reflect-metadata';
import { createSecretKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  CallHandler,
  Controller,
  Delete,
  ExecutionContext,
  Get,
  Injectable,
  Module,
  NestInterceptor,
  NotFoundException,
  Options,
  Param,
  Patch,
  Post,
  Put,
  Type,
  UseGuards,
  ValidationPipe,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { AuthGuard, PassportModule, PassportStrategy } from '@nestjs/passport';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { IsUUID } from 'class-validator';
import helmet from 'helmet';
import { ExtractJwt, Strategy } from 'passport-jwt';
import pino from 'pino';
import { pinoHttp } from 'pino-http';
import { Histogram, Registry } from 'prom-client';
import { map, Observable } from 'rxjs';
import { Column, Entity, PrimaryColumn, Repository } from 'typeorm';

const key = createSecretKey(Buffer.from(process.env.JWT_SECRET ?? '', 'utf8'));

@Entity('users')
class User {
  @PrimaryColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('text') email!: string;
  @Column('text') type!: string;
}

@Injectable()
class JwtStrategy extends PassportStrategy(Strategy) {
  constructor() {
    super({ jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(), secretOrKey: key as unknown as Buffer, algorithms: ['HS256'] });
  }
  validate(payload: { sub: string }) {
    return { id: payload.sub };
  }
}

class UserParams {
  @IsUUID()
  id!: string;
}

@Controller()
class FloorController {
  constructor(@InjectRepository(User) private readonly users: Repository<User>) {}
  @Get('floor/users/:id')
  @UseGuards(AuthGuard('jwt'))
  async one(@Param() params: UserParams) {
    const user = await this.users.findOne({ where: { id: params.id } });
    if (!user) throw new NotFoundException();
    return user;
  }
}

@Injectable()
class EnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((data) => ({ data })));
  }
}

/** The seed's routes as empty handlers: one controller per first path segment (`/api/v1/<segment>/…`). */
function seedControllers(): Type[] {
  const file = process.env.ROUTES_TSV ?? path.resolve(__dirname, '../../../shared/spec/routes.tsv');
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => {
      const [method, p] = l.split('\t');
      return { method: method.toUpperCase(), path: p.replace(/\{(\w+)\}/g, ':$1') };
    });
  const decorators: Record<string, (p: string) => MethodDecorator> = { GET: Get, POST: Post, PUT: Put, PATCH: Patch, DELETE: Delete, OPTIONS: Options };
  const groups = new Map<string, typeof rows>();
  for (const r of rows) {
    const segment = r.path.split('/')[3] ?? '';
    if (!groups.has(segment)) groups.set(segment, []);
    groups.get(segment)!.push(r);
  }
  const controllers: Type[] = [];
  for (const [segment, routes] of groups) {
    class Routes {}
    routes.forEach((r, i) => {
      const name = `h${i}`;
      Object.defineProperty(Routes.prototype, name, { value: function () {}, writable: true, configurable: true });
      decorators[r.method](r.path)(Routes.prototype, name, Object.getOwnPropertyDescriptor(Routes.prototype, name)!);
    });
    Object.defineProperty(Routes, 'name', { value: `Routes_${segment.replace(/\W/g, '_')}` });
    Controller()(Routes);
    controllers.push(Routes);
  }
  console.error(`production floor: ${rows.length} seed routes on ${controllers.length} controllers`);
  return controllers;
}
const seed = seedControllers();
const half = Math.ceil(seed.length / 2);

@Module({
  imports: [
    TypeOrmModule.forRoot({ type: 'postgres', url: process.env.DATABASE_URL, entities: [User], synchronize: false, extra: { max: 10 } }),
    TypeOrmModule.forFeature([User]),
    PassportModule,
    JwtModule.register({ secret: key as unknown as string }),
    ThrottlerModule.forRoot([{ ttl: 60_000, limit: 1_000_000_000 }]),
  ],
  controllers: [...seed.slice(0, half), FloorController, ...seed.slice(half)],
  providers: [JwtStrategy, { provide: APP_GUARD, useClass: ThrottlerGuard }, { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor }],
})
class ProductionFloorModule {}

async function main() {
  const app = await NestFactory.create(ProductionFloorModule, { logger: ['error'] });
  const registry = new Registry();
  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const destination = pino.destination({ dest: 1, sync: false });
  // pino-http's default request and response serialisers, the credentials redacted.
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'info', redact: ['req.headers.authorization', 'req.headers.cookie'] }, destination);
  app.use(helmet());
  app.enableCors();
  app.use(pinoHttp({ logger }));
  app.use((req: { method: string; route?: { path?: string }; baseUrl?: string }, res: { statusCode: number; once: (e: string, f: () => void) => void }, next: () => void) => {
    const end = requests.startTimer();
    res.once('finish', () => end({ method: req.method, route: req.route?.path ? `${req.baseUrl ?? ''}${req.route.path}` : 'unmatched', status: String(res.statusCode) }));
    next();
  });
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  await app.listen(Number(process.env.PORT ?? 3998), '127.0.0.1');
  process.on('SIGTERM', () => void app.close().then(() => (destination.flushSync(), process.exit(0))));
}
void main();
