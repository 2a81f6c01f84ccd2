'use strict';
/* The files of a generated module (names from ../names.js). Mirrors src/modules/promotions (a small module). */

/** `@Extension(why)` on a generated route that the seed (../shared/spec/routes.tsv) does not have (README "Extensions"). */
const extension = (seed, method, path, n) => (seed.has(`${method} ${path}`) ? '' : `  @Extension('generated module ${n.module} (README "Adding a module")')\n`);

const tag = (n) => n.Module.replace(/([a-z])([A-Z])/g, '$1 $2');

function templates(n, { access, migration, stamp, layer, seed }) {
  const d = `src/modules/${n.module}`;
  const cmd = `nest g module-feature ${n.module} --layer ${layer}`;
  return {
    [`${d}/index.ts`]: `/** What other modules may use of ${n.whats} (never its entities). */
export { ${n.Module}Module } from './${n.module}.module';
export { ${n.Module}Service } from './${n.module}.service';
`,
    [`${d}/${n.module}.module.ts`]: `import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import './notifications'; // this module's notification rules, registered (src/common/outbox/notification-rules.ts)
import { Module } from '@nestjs/common';
import { ${n.Module}Controller } from './${n.module}.controller';
import { ${n.Thing}Repository } from './${n.thing}.repository';
import { ${n.Module}Service } from './${n.module}.service';

/** ${n.what}s of a company (\`${cmd}\`). */
@Module({ controllers: [${n.Module}Controller], providers: [${n.Module}Service, ${n.Thing}Repository], exports: [${n.Module}Service] })
export class ${n.Module}Module {}
`,
    [`${d}/module.json`]: `{ "layer": ${layer} }\n`,
    [`${d}/entities.ts`]: `import { ${n.Thing} } from './${n.thing}.entity';

/**
 * This module's entities (its tables). Every data source gets them from here (src/app.entities.ts loads
 * the \`ENTITIES\` of each module's entities.ts); a new entity of the module is added to this list.
 */
export const ENTITIES = [${n.Thing}];
`,
    [`${d}/notifications.ts`]: `import { notificationRules } from '../../common/outbox/notification-rules';

/**
 * Who is told of the ${n.whats} module's events, registered from here (src/common/outbox/notification-rules.ts;
 * the communication module makes the notifications when the relay hands it the event). A new
 * ${n.thing.replace(/-/g, ' ')} tells the company's users (not the one who made it: a ${n.thing.replace(/-/g, ' ')} a subscriber of this
 * module records for the system tells them all).
 */
notificationRules({
  '${n.thingSnake}.created': (e) => [{ to: ['company'], title: 'New ${n.thing.replace(/-/g, ' ')}', body: 'A ${n.thing.replace(/-/g, ' ')} was recorded.', data: { ${n.thingSnake}_id: e.aggregateId } }],
});
`,
    [`${d}/events.ts`]: `import { webhookEvents } from '../../common/outbox/webhook-events';

/** The ${n.whats} module's records (created/updated/deleted through CompanyRecords; src/common/outbox/event-catalogue.ts). */
declare module '../../common/outbox/event-catalogue' {
  interface RecordEventPrefixes {
    ${n.thingSnake}: true;
  }
}

/** The events companies may subscribe their outbound webhooks to (src/common/outbox/webhook-events.ts). */
webhookEvents('${n.thingSnake}.created', '${n.thingSnake}.updated', '${n.thingSnake}.deleted');
`,
    [`${d}/${n.thing}.entity.ts`]: `import { Column, DeleteDateColumn, Entity, ForeignKey, Index } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';
import { Tenant } from '../../common/access/tenant-policy';

/** A company's ${n.thing.replace(/-/g, ' ')} (migration ${stamp}-${n.Module}). */
@Tenant()
@Entity('${n.table}')
@Index('idx_${n.table}_company_id', ['companyId'])
export class ${n.Thing} extends BaseEntity {
  @ForeignKey('companies', { name: '${n.table}_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'text' }) name: string;
  @DeleteDateColumn({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}
`,
    [`${d}/${n.thing}.repository.ts`]: `import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { CompanyRecords, type ActorRef } from '../../common/records/company-records';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { UnitOfWork } from '../../database/unit-of-work';
import { ${n.Thing} } from './${n.thing}.entity';

/** The company scope the statement snapshots run with (test/database/sql-snapshots.spec.ts). */
const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);
const SAMPLE_ACTOR = { id: SQL_SAMPLE.actorId };

/** The \`${n.table}\` table: the module's only SQL (docs/data-layer.md). */
@Injectable()
export class ${n.Thing}Repository extends ModuleRepository {
  private readonly records: CompanyRecords<${n.Thing}>;

  constructor(uow: UnitOfWork) {
    super(uow);
    this.records = new CompanyRecords(uow.ds, { entity: ${n.Thing}, what: '${n.what}', event: '${n.thingSnake}' });
  }

  /** A live ${n.thing.replace(/-/g, ' ')} the scope reaches, else 404. */
  find(scope: Scope, id: string): Promise<${n.Thing}> {
    return this.records.find(scope.companyId, id, this.m);
  }

  /** A new row of the scope's company (and its \`${n.thingSnake}.created\` event, in the same unit). */
  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, { name: 'Sample' }] })
  create(actor: ActorRef, scope: Scope, values: Partial<${n.Thing}>): Promise<${n.Thing}> {
    return this.records.create(actor, scope.companyId, values);
  }

  // nest g route: repository methods go above this line
}
`,
    [`${d}/${n.module}.dto.ts`]: `import { ApiProperty } from '@nestjs/swagger';
import { TextField } from '../../common/validation/fields';
import { ${n.Thing} } from './${n.thing}.entity';

export class Create${n.Thing}Dto {
  @TextField({ max: 200, example: 'First ${n.thing.replace(/-/g, ' ')}' }) name: string;
}

export class ${n.Thing}Dto {
  @ApiProperty({ format: 'uuid', example: '7d3c1f0e-2b4a-4c7e-9f55-0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'First ${n.thing.replace(/-/g, ' ')}' }) name: string;
  @ApiProperty({ example: '2026-01-31T09:30:00.000Z' }) created_at: string;
  @ApiProperty({ example: '2026-01-31T09:30:00.000Z' }) updated_at: string;

  static of(r: ${n.Thing}): ${n.Thing}Dto {
    return { id: r.id, name: r.name, created_at: r.createdAt.toISOString(), updated_at: r.updatedAt.toISOString() };
  }
}

// nest g route: DTOs go above this line
`,
    [`${d}/${n.module}.service.ts`]: `import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { UnitOfWork } from '../../database/unit-of-work';
import { ${n.Thing}Repository } from './${n.thing}.repository';
import { Create${n.Thing}Dto, ${n.Thing}Dto } from './${n.module}.dto';

/** ${n.what}s: the rules (the SQL is the repository's; every method takes the caller's Scope). */
@Injectable()
export class ${n.Module}Service {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly ${n.moduleCamel}: ${n.Thing}Repository,
  ) {}

  async get(scope: Scope, id: string): Promise<${n.Thing}Dto> {
    return ${n.Thing}Dto.of(await this.${n.moduleCamel}.find(scope, id));
  }

  async create(actor: Actor, scope: Scope, d: Create${n.Thing}Dto): Promise<${n.Thing}Dto> {
    const row = await this.uow.transaction(() => this.${n.moduleCamel}.create(actor, scope, { name: d.name }));
    return ${n.Thing}Dto.of(row);
  }

  // nest g route: service methods go above this line
}
`,
    [`${d}/${n.module}.controller.ts`]: `import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access, Extension } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { CurrentScope, Scope } from '../../common/access/scope';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { describeApiTag } from '../../common/http/openapi-document';
import { Create${n.Thing}Dto, ${n.Thing}Dto } from './${n.module}.dto';
import { ${n.Module}Service } from './${n.module}.service';

describeApiTag('${tag(n)}', '${n.what}s of a company (generated module ${n.module}: \`${cmd}\`).', 'README.md');

@ApiTags('${tag(n)}')
@Controller('api/v1')
export class ${n.Module}Controller {
  constructor(private readonly ${n.moduleCamel}: ${n.Module}Service) {}

  @Post('${n.module}')
  @Access('${access}')
${extension(seed, 'POST', `/api/v1/${n.module}`, n)}  @Endpoint({ summary: 'Create a ${n.thing.replace(/-/g, ' ')} (extension: generated module ${n.module})', type: ${n.Thing}Dto, status: 201, errors: [422] })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: Create${n.Thing}Dto) {
    return this.${n.moduleCamel}.create(actor, scope, dto);
  }

  @Get('${n.module}/:${n.thingCamel}')
  @Access('${access}')
${extension(seed, 'GET', `/api/v1/${n.module}/{${n.thingCamel}}`, n)}  @ApiIdParam('${n.thingCamel}')
  @Endpoint({ summary: 'Show a ${n.thing.replace(/-/g, ' ')} (extension: generated module ${n.module})', type: ${n.Thing}Dto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('${n.thingCamel}') id: string) {
    return this.${n.moduleCamel}.get(scope, id);
  }

  // nest g route: routes go above this line
}
`,
    [`migrations/${stamp}-${n.Module}.ts`]: `import { MigrationInterface, QueryRunner } from 'typeorm';

/** The ${n.whats} module's table (\`${cmd}\`). */
export class ${migration} implements MigrationInterface {
  name = '${migration}';

  async up(q: QueryRunner): Promise<void> {
    await q.query(\`
      CREATE TABLE ${n.table} (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )\`);
    await q.query(\`CREATE INDEX idx_${n.table}_company_id ON ${n.table} (company_id)\`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(\`DROP TABLE ${n.table}\`);
  }
}
`,
    [`test/${n.module}/tenant-kinds.ts`]: `import type { ModuleTenantKind } from '../support/tenant-world';

/** The ${n.whats} module's records in the tenant-isolation sweep (test/support/tenant-world.ts loads this file). */
export const TENANT_KINDS: ModuleTenantKind[] = [
  {
    kind: '${n.thingCamel}',
    params: ['${n.thingCamel}'],
    bodyIds: ['${n.thingSnake}_id'],
    create: async ({ co }) => (await co('${n.module}', { name: 'Sweep ${n.thing.replace(/-/g, ' ')}' })).id,
  },
];
`,
    [`test/${n.module}/${n.module}.e2e.spec.ts`]: `import { ABSENT_ID, Cast, startWithCast } from '../support/fixtures';
import type { CompanyActor } from '../support/actors';

/** Administrators register with it (\`AD\` routes: test/support/admin.ts). */
const ADMIN_KEY = 'generated-module-admin-key';

/** The ${n.whats} module's routes (\`${cmd}\`; \`nest g route\` adds its tests above the marker). */
describe('${n.module} routes', () => {
  let { t, co, other, customer, driver } = {} as Cast;

  const create = async (actor: CompanyActor, body: Record<string, unknown> = {}) =>
    (await t.req('post', '/api/v1/${n.module}', { token: actor.token, body: { name: 'First ${n.thing.replace(/-/g, ' ')}', ...body } }).expect(201)).body.data;

  beforeAll(async () => ({ t, co, other, customer, driver } = await startWithCast({}, { env: { ADMIN_REGISTRATION_KEY: ADMIN_KEY } })));
  afterAll(async () => t?.close());

  it('creates and shows a ${n.thing.replace(/-/g, ' ')}', async () => {
    const row = await create(co, { name: 'Spring batch' });
    expect(row).toMatchObject({ name: 'Spring batch' });
    const shown = await t.req('get', \`/api/v1/${n.module}/\${row.id}\`, { token: co.token }).expect(200);
    expect(shown.body.data).toEqual(row);
    const [ev] = await t.ds.query(\`SELECT count(*)::int AS n FROM outbox_events WHERE aggregate_id = $1 AND type = '${n.thingSnake}.created'\`, [row.id]);
    expect(ev.n).toBe(1);
  });

  it('admits ${access} only (401 without a token, 403 for the others)', async () => {
    const row = await create(co);
    await t.req('get', \`/api/v1/${n.module}/\${row.id}\`).expect(401);
    await t.req('post', '/api/v1/${n.module}', { body: { name: 'x' } }).expect(401);
    for (const actor of [customer, driver]) {
      await t.req('get', \`/api/v1/${n.module}/\${row.id}\`, { token: actor.token }).expect(403);
      await t.req('post', '/api/v1/${n.module}', { token: actor.token, body: { name: 'x' } }).expect(403);
    }
  });

  it("answers 404 for another company's ${n.thing.replace(/-/g, ' ')}, an absent id and a malformed one", async () => {
    const theirs = await create(other);
    await t.req('get', \`/api/v1/${n.module}/\${theirs.id}\`, { token: co.token }).expect(404);
    await t.req('get', \`/api/v1/${n.module}/\${ABSENT_ID}\`, { token: co.token }).expect(404);
    await t.req('get', '/api/v1/${n.module}/nope', { token: co.token }).expect(404);
    await t.req('get', \`/api/v1/${n.module}/\${theirs.id}\`, { token: other.token }).expect(200);
  });

  it('rejects bad input with 422', async () => {
    const res = await t.req('post', '/api/v1/${n.module}', { token: co.token, body: { name: '', extra: 1 } }).expect(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['extra', 'name']);
    await t.req('post', '/api/v1/${n.module}', { token: co.token, body: { name: 'x'.repeat(201) } }).expect(422);
    await t.req('post', '/api/v1/${n.module}', { token: co.token, body: {} }).expect(422);
  });

  it('offers its events to outbound webhooks (events.ts)', async () => {
    const body = { url: 'http://127.0.0.1:9/hook', events: ['${n.thingSnake}.created', '${n.thingSnake}.updated', '${n.thingSnake}.deleted'] };
    const hook = await t.req('post', '/api/v1/psp/create/webhook', { token: co.token, body }).expect(201);
    expect(hook.body.data.events).toEqual(body.events);
    await t.req('post', '/api/v1/psp/create/webhook', { token: co.token, body: { ...body, events: ['${n.thingSnake}.archived'] } }).expect(422);
    const doc = (await t.req('get', '/api/documentation-json').expect(200)).body;
    expect(doc.components.schemas.CreateWebhookDto.properties.events.items.enum).toEqual(expect.arrayContaining([...body.events, 'order.placed']));
  });

  // nest g route: tests go above this line
});
`,
  };
}

module.exports = { templates, extension };
