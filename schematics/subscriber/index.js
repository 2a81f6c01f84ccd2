'use strict';
const { names, words, cap } = require('../names');
const { ensureImport, beforeMarker, read } = require('../edit');

/**
 * `nest g subscriber <module> <event>`: an `@EventSubscriber` of a catalogue event in a module made by
 * module-feature, provided by its module (so the relay finds it at start), calling a service method with
 * the event's company Scope that records a row of the module's table for the event (a working reaction to
 * edit), and a test that records the event, runs the relay, and finds the delivery processed and the row
 * made once.
 */
function subscriber(options) {
  return (tree, context) => {
    const n = names(options.name);
    const event = String(options.event ?? options.path ?? '');
    if (!/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/.test(event)) throw new Error(`event must be a catalogue name (order.placed), not "${event}"`);
    if (!catalogued(tree, event)) context.logger.warn(`${event} is not written out in any events.ts nor in src/common/outbox/event-catalogue.ts (tsc will tell whether the catalogue has it)`);
    const dir = `src/modules/${n.module}`;
    const files = { module: `${dir}/${n.module}.module.ts`, service: `${dir}/${n.module}.service.ts`, test: `test/${n.module}/${n.module}.e2e.spec.ts` };
    for (const f of Object.values(files)) if (!tree.exists(f)) throw new Error(`${f} not found: \`nest g subscriber\` adds to a module made by \`nest g module-feature\``);
    const ew = words(event);
    const On = `On${ew.map(cap).join('')}`; // OnOrderPlaced
    const cls = `${n.Module}${On}`;
    const file = `${dir}/${ew.join('-')}.subscriber.ts`;
    const fn = `on${ew.map(cap).join('')}`;
    const subscriberName = `${n.module}.on-${ew.join('-')}`;
    if (tree.exists(file)) throw new Error(`${file} exists already`);

    tree.create(
      file,
      `import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { EventSubscriber, type EventHandler, type RelayedEvent } from '../../common/outbox/event-subscriber';
import { ${n.Module}Service } from './${n.module}.service';

/**
 * \`${event}\` → the ${n.whats} module (\`nest g subscriber ${n.module} ${event}\`). Runs in the delivery's unit of
 * work, once per event and subscriber (its work commits with the delivery; a throw retries it later).
 */
@Injectable()
@EventSubscriber({ name: '${subscriberName}', events: ['${event}'] })
export class ${cls} implements EventHandler<'${event}'> {
  constructor(private readonly ${n.moduleCamel}: ${n.Module}Service) {}

  async handle(event: RelayedEvent<'${event}'>): Promise<void> {
    if (!event.companyId) return;
    await this.${n.moduleCamel}.${fn}(Scope.company(event.companyId), event);
  }
}
`,
    );

    let service = read(tree, files.service);
    service = beforeMarker(
      service,
      'nest g route: service methods go above this line',
      `  /**
   * \`${event}\` (relayed, in the delivery's unit of work: ${cls}): records a ${n.thing.replace(/-/g, ' ')} of the event's
   * company named after the event (by its actor; the system when it has none), with its
   * \`${n.thingSnake}.created\` event. Once per event: the relay commits it with the delivery.
   */
  async ${fn}(scope: Scope, event: RelayedEvent<'${event}'>): Promise<${n.Thing}Dto> {
    const row = await this.uow.transaction(() => this.${n.moduleCamel}.create({ id: event.actorId }, scope, { name: \`\${event.type} \${event.aggregateId}\` }));
    return ${n.Thing}Dto.of(row);
  }
`,
      files.service,
    );
    service = ensureImport(service, 'RelayedEvent', '../../common/outbox/event-subscriber', true);
    tree.overwrite(files.service, service);

    let mod = read(tree, files.module);
    if (!/providers: \[/.test(mod)) throw new Error(`${files.module}: no providers list`);
    mod = mod.replace(/providers: \[([^\]]*)\]/, (_, list) => `providers: [${list}, ${cls}]`);
    mod = ensureImport(mod, cls, `./${ew.join('-')}.subscriber`);
    tree.overwrite(files.module, mod);

    let test = read(tree, files.test);
    test = beforeMarker(
      test,
      'nest g route: tests go above this line',
      `  it('records a ${n.thing.replace(/-/g, ' ')} for each ${event} through the relay, once (${subscriberName})', async () => {
    const uow = t.app.get(UnitOfWork);
    const relay = async () => {
      for (let i = 0; i < 10 && (await t.app.get(OutboxRelay).runOnce()).claimed > 0; i++);
    };
    const aggregateId = randomUUID();
    await uow.transaction(() => recordEvents(uow.manager, { type: '${event}', aggregateType: '${ew[0]}', aggregateId, companyId: co.companyId, actorId: null, payload: {} } as DomainEvent<'${event}'>));
    await relay();
    const deliveries = await t.ds.query(
      \`SELECT d.status FROM outbox_deliveries d JOIN outbox_events e ON e.id = d.event_id WHERE e.aggregate_id = $1 AND d.subscriber = '${subscriberName}'\`,
      [aggregateId],
    );
    expect(deliveries).toEqual([{ status: 'processed' }]);
    const rows = await t.ds.query(\`SELECT id, company_id FROM ${n.table} WHERE name = $1\`, [\`${event} \${aggregateId}\`]);
    expect(rows).toEqual([{ id: expect.any(String), company_id: co.companyId }]);
    // The row is the company's like any other (its API shows it); made by the system, its ${n.thingSnake}.created
    // told the company's users (the module's notifications.ts); a second relay pass makes no second one.
    expect((await t.req('get', \`/api/v1/${n.module}/\${rows[0].id}\`, { token: co.token }).expect(200)).body.data).toMatchObject({ name: \`${event} \${aggregateId}\` });
    const told = (await t.req('get', '/api/v1/notifications/get?per_page=100', { token: co.token }).expect(200)).body.data;
    expect(told.filter((x: { data: Record<string, string> }) => x.data.${n.thingSnake}_id === rows[0].id)).toMatchObject([{ type: '${n.thingSnake}.created', title: 'New ${n.thing.replace(/-/g, ' ')}' }]);
    await relay();
    expect(await t.ds.query(\`SELECT count(*)::int AS n FROM ${n.table} WHERE name = $1\`, [\`${event} \${aggregateId}\`])).toEqual([{ n: 1 }]);
  });
`,
      files.test,
    );
    test = ensureImport(test, 'randomUUID', 'node:crypto');
    test = ensureImport(test, 'UnitOfWork', '../../src/database/unit-of-work');
    test = ensureImport(test, 'OutboxRelay', '../../src/common/outbox/outbox-relay');
    test = ensureImport(test, 'recordEvents', '../../src/common/outbox/outbox');
    test = ensureImport(test, 'DomainEvent', '../../src/common/outbox/outbox', true);
    tree.overwrite(files.test, test);
    context.logger.info(`${event} → ${cls} (${subscriberName})`);
    return tree;
  };
}

/** Whether the event is declared: in the catalogue or a module's events.ts. */
function catalogued(tree, event) {
  const quoted = [`'${event}'`, `"${event}"`];
  let found = false;
  const visit = (d) => {
    tree.getDir(d).visit((path) => {
      if (!found && /(events|event-catalogue)\.ts$/.test(path)) {
        const text = tree.read(path).toString('utf8');
        if (quoted.some((q) => text.includes(q))) found = true;
        // Record prefixes (\`promotion: true\` → promotion.created/updated/deleted).
        const [prefix, verb] = event.split('.');
        if (['created', 'updated', 'deleted'].includes(verb) && new RegExp(`RecordEventPrefixes[^}]*\\b${prefix}: true`).test(text)) found = true;
      }
    });
  };
  visit('src');
  return found;
}

module.exports = { subscriber };
