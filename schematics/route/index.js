'use strict';
const { names, words, cap } = require('../names');
const { ensureImport, beforeMarker, read } = require('../edit');
const { extensionLine } = require('../module-feature/templates');
const { seedRoutes } = require('../module-feature');
const { addToSnapshot } = require('../sql-snapshot');

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Who the generated test calls the route as, per access code (the e2e cast of test/support/fixtures.ts). */
const ACTORS = { CO: 'co', 'CO-B': 'co', CU: 'customer', 'CU-B': 'customer', DR: 'driver', 'DR-B': 'driver', TOK: 'co', 'TOK-ACT': 'co' };

/**
 * `nest g route <module> '<METHOD> <path> <access>'` (or `npm run -s g -- route <module> <METHOD> <path>
 * --access <code>`): a route of a module made by module-feature, on its records. By method and path:
 * GET on the collection lists (paged), GET on a record shows it, DELETE on a record deletes it (soft),
 * another write on a record updates it (body: its fields, all optional), a write on the collection
 * creates one. Adds the controller method (@Access), its DTO, the service and repository methods, the
 * extension-list line (unless the seed has the route) and a test in the module's e2e file.
 */
function route(options) {
  return (tree, context) => {
    let method = options.method;
    let path = options.path;
    let access = options.access;
    if (!method) {
      // `nest g route <module> 'GET /invoices CO'`: nest passes the quoted text unquoted, so the shell splits it.
      method = String(options.path ?? '');
      path = options.routePath;
      access = access ?? options.accessArg;
    }
    method = String(method).toUpperCase();
    if (!METHODS.includes(method)) throw new Error(`method must be one of ${METHODS.join(', ')}, not "${method}"`);
    if (!path || !String(path).startsWith('/')) throw new Error(`path must start with "/" (/${options.name}, /${options.name}/{id}), not "${path}"`);
    if (!access) throw new Error('--access <code> is required (src/common/access/access-codes.ts)');
    const actor = ACTORS[access];
    if (!actor) throw new Error(`access ${access}: the route generator writes tests for ${Object.keys(ACTORS).join(', ')} only`);

    const n = names(options.name);
    const dir = `src/modules/${n.module}`;
    const files = {
      controller: `${dir}/${n.module}.controller.ts`,
      service: `${dir}/${n.module}.service.ts`,
      repository: `${dir}/${n.thing}.repository.ts`,
      dto: `${dir}/${n.module}.dto.ts`,
      test: `test/${n.module}/${n.module}.e2e.spec.ts`,
    };
    for (const f of Object.values(files)) if (!tree.exists(f)) throw new Error(`${f} not found: \`nest g route\` adds to a module made by \`nest g module-feature\``);

    const segs = String(path).replace(/^\/+|\/+$/g, '').replace(/^api\/v1\/?/, '').split('/').filter(Boolean);
    if (!segs.length) throw new Error('empty path');
    const params = segs.map((s) => /^[{:](\w+)}?$/.exec(s)).filter(Boolean).map((m) => m[1]);
    const nestPath = segs.map((s) => s.replace(/^\{(\w+)\}$/, ':$1')).join('/');
    const apiPath = `/api/v1/${segs.map((s) => s.replace(/^:(\w+)$/, '{$1}')).join('/')}`;
    const last = params.length && /^[{:]/.test(segs[segs.length - 1]);
    const kind = method === 'GET' ? (last ? 'show' : 'list') : method === 'DELETE' ? (params.length ? 'remove' : null) : params.length ? 'update' : 'create';
    if (!kind) throw new Error('DELETE needs a record id in the path (/…/{id})');
    if (params.length > 1) throw new Error('one path parameter at most (the record of this module)');
    const param = params[0];

    let controller = read(tree, files.controller);
    const fixed = segs.filter((s) => !/^[{:]/.test(s)).flatMap(words);
    let fn = { list: 'list', show: 'show', update: 'update', remove: 'remove', create: 'create' }[kind];
    if (new RegExp(`^  (async )?${fn}\\(`, 'm').test(controller)) fn = [method.toLowerCase(), ...fixed].map((w, i) => (i ? cap(w) : w)).join('');
    if (new RegExp(`^  (async )?${fn}\\(`, 'm').test(controller)) throw new Error(`${files.controller} has a method ${fn} already`);
    if (controller.includes(`'${nestPath}'`) && new RegExp(`@${cap(method.toLowerCase())}\\('${nestPath}'\\)`).test(controller)) throw new Error(`${method} ${apiPath} is there already`);
    const Fn = cap(fn);
    const Dto = `${n.Thing}${Fn}${kind === 'list' ? 'Query' : 'Body'}`;
    const decorator = cap(method.toLowerCase());
    const summary = `${{ list: `List ${n.whats}`, show: `Show a ${n.thing.replace(/-/g, ' ')}`, update: `Update a ${n.thing.replace(/-/g, ' ')}`, remove: `Delete a ${n.thing.replace(/-/g, ' ')} (soft)`, create: `Create a ${n.thing.replace(/-/g, ' ')}` }[kind]} (extension: generated module ${n.module})`;
    const svc = n.moduleCamel;

    // ---- controller
    const args = {
      list: [`@CurrentScope() scope: Scope`, `@Query() q: ${Dto}`],
      show: [`@CurrentScope() scope: Scope`, `@IdParam('${param}') id: string`],
      update: [`@CurrentActor() actor: Actor`, `@CurrentScope() scope: Scope`, `@IdParam('${param}') id: string`, `@Body() dto: ${Dto}`],
      remove: [`@CurrentActor() actor: Actor`, `@CurrentScope() scope: Scope`, `@IdParam('${param}') id: string`],
      create: [`@CurrentActor() actor: Actor`, `@CurrentScope() scope: Scope`, `@Body() dto: ${Dto}`],
    }[kind];
    const call = { list: 'scope, q', show: 'scope, id', update: 'actor, scope, id, dto', remove: 'actor, scope, id', create: 'actor, scope, dto' }[kind];
    const endpoint = {
      list: `{ summary: '${summary}', type: ${n.Thing}Dto, list: true, errors: [422] }`,
      show: `{ summary: '${summary}', type: ${n.Thing}Dto, errors: [404] }`,
      update: `{ summary: '${summary}', type: ${n.Thing}Dto, errors: [404, 422] }`,
      remove: `{ summary: '${summary}', errors: [404] }`,
      create: `{ summary: '${summary}', type: ${n.Thing}Dto, status: 201, errors: [422] }`,
    }[kind];
    controller = beforeMarker(
      controller,
      'nest g route: routes go above this line',
      `  @${decorator}('${nestPath}')
  @Access('${access}')
${param ? `  @ApiIdParam('${param}')\n` : ''}  @Endpoint(${endpoint})
  ${kind === 'remove' ? 'async ' : ''}${fn}(${args.join(', ')}) {
    ${kind === 'remove' ? 'await ' : 'return '}this.${svc}.${fn}(${call});
  }
`,
      files.controller,
    );
    controller = ensureImport(controller, decorator, '@nestjs/common');
    if (kind === 'list') controller = ensureImport(controller, 'Query', '@nestjs/common');
    if (kind === 'update' || kind === 'create') controller = ensureImport(controller, 'Body', '@nestjs/common');
    if (['update', 'remove', 'create'].includes(kind)) {
      controller = ensureImport(controller, 'Actor', '../../common/access/actor');
      controller = ensureImport(controller, 'CurrentActor', '../../common/access/actor');
    }
    if (param) {
      controller = ensureImport(controller, 'ApiIdParam', '../../common/http/id-param');
      controller = ensureImport(controller, 'IdParam', '../../common/http/id-param');
    }
    if (kind === 'list' || kind === 'update' || kind === 'create') controller = ensureImport(controller, Dto, `./${n.module}.dto`);
    controller = ensureImport(controller, `${n.Thing}Dto`, `./${n.module}.dto`);
    tree.overwrite(files.controller, controller);

    // ---- DTO
    let dto = read(tree, files.dto);
    if (kind === 'list') {
      dto = beforeMarker(dto, 'nest g route: DTOs go above this line', `/** \`${method} ${apiPath}\`: paging, \`q\` on the name, \`sort\` (created_at, name). */\nexport class ${Dto} extends PageQuery {}\n`, files.dto);
      dto = ensureImport(dto, 'PageQuery', '../../common/http/pagination');
    } else if (kind === 'update' || kind === 'create') {
      dto = beforeMarker(
        dto,
        'nest g route: DTOs go above this line',
        `/** \`${method} ${apiPath}\`'s body. */\nexport class ${Dto} {\n  @TextField({ max: 200, ${kind === 'update' ? 'optional: true, ' : ''}example: 'Second ${n.thing.replace(/-/g, ' ')}' }) name${kind === 'update' ? '?' : ''}: string;\n}\n`,
        files.dto,
      );
      dto = ensureImport(dto, 'TextField', '../../common/validation/fields');
    }
    tree.overwrite(files.dto, dto);

    // ---- service
    let service = read(tree, files.service);
    const body = {
      list: `  /** \`${method} ${apiPath}\`: a page of the scope's ${n.whats}. */
  async ${fn}(scope: Scope, q: ${Dto}): Promise<Page<${n.Thing}Dto>> {
    const page = await this.${svc}.${fn}(scope, q);
    return new Page(page.items.map(${n.Thing}Dto.of), page.meta);
  }
`,
      show: `  /** \`${method} ${apiPath}\`. */
  async ${fn}(scope: Scope, id: string): Promise<${n.Thing}Dto> {
    return ${n.Thing}Dto.of(await this.${svc}.find(scope, id));
  }
`,
      update: `  /** \`${method} ${apiPath}\`: the given fields (a record the scope does not reach is 404). */
  async ${fn}(actor: Actor, scope: Scope, id: string, d: ${Dto}): Promise<${n.Thing}Dto> {
    const row = await this.uow.transaction(() => this.${svc}.${fn}(actor, scope, id, { name: d.name }));
    return ${n.Thing}Dto.of(row);
  }
`,
      remove: `  /** \`${method} ${apiPath}\`: soft delete (a record the scope does not reach is 404). */
  ${fn}(actor: Actor, scope: Scope, id: string): Promise<void> {
    return this.uow.transaction(() => this.${svc}.${fn}(actor, scope, id));
  }
`,
      create: `  /** \`${method} ${apiPath}\`. */
  async ${fn}(actor: Actor, scope: Scope, d: ${Dto}): Promise<${n.Thing}Dto> {
    const row = await this.uow.transaction(() => this.${svc}.create(actor, scope, { name: d.name }));
    return ${n.Thing}Dto.of(row);
  }
`,
    }[kind];
    service = beforeMarker(service, 'nest g route: service methods go above this line', body, files.service);
    if (kind === 'list') {
      service = ensureImport(service, 'Page', '../../common/http/envelope');
    }
    if (kind === 'list' || kind === 'update' || kind === 'create') service = ensureImport(service, Dto, `./${n.module}.dto`);
    tree.overwrite(files.service, service);

    // ---- repository
    if (kind === 'list' || kind === 'update' || kind === 'remove') {
      let repo = read(tree, files.repository);
      const r = {
        list: `  /** A page of the scope's live ${n.whats} (\`q\` on the name). */
  @GenerateSql({ name: 'no filter', params: [SAMPLE_SCOPE, {}] }, { name: 'with filters', params: [SAMPLE_SCOPE, { q: 'spring', sort: 'name', page: 2, per_page: 10 }] })
  ${fn}(scope: Scope, q: ${Dto}): Promise<Page<${n.Thing}>> {
    const qb = scopedQuery(this.m, ${n.Thing}, scope, 'x');
    if (q.q) qb.andWhere('x.name ILIKE :q', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { created_at: 'x.createdAt', name: 'x.name' } });
  }
`,
        update: `  /** The given values on a live row the scope reaches (its \`${n.thingSnake}.updated\` event in the same unit); else 404. */
  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id, { name: 'Sample' }] })
  ${fn}(actor: Pick<Actor, 'id'>, scope: Scope, id: string, values: Partial<${n.Thing}>): Promise<${n.Thing}> {
    return this.records.update(actor, scope.companyId, id, values);
  }
`,
        remove: `  /** Soft-deletes a live row the scope reaches (its \`${n.thingSnake}.deleted\` event in the same unit); else 404. */
  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id] })
  ${fn}(actor: Pick<Actor, 'id'>, scope: Scope, id: string): Promise<void> {
    return this.records.remove(actor, scope.companyId, id);
  }
`,
      }[kind];
      repo = beforeMarker(repo, 'nest g route: repository methods go above this line', r, files.repository);
      if (kind === 'list') {
        repo = ensureImport(repo, 'scopedQuery', '../../common/access/tenant-policy');
        repo = ensureImport(repo, 'Page', '../../common/http/envelope');
        repo = ensureImport(repo, 'likePattern', '../../common/http/pagination');
        repo = ensureImport(repo, 'paginate', '../../common/http/pagination');
        repo = ensureImport(repo, Dto, `./${n.module}.dto`, true);
      }
      tree.overwrite(files.repository, repo);
      addToSnapshot(tree, n, kind, fn);
    }

    // ---- test
    const who = actor;
    const others = ['co', 'customer', 'driver'].filter((a) => a !== who && !(access === 'TOK' || access === 'TOK-ACT'));
    const url = (id) => (param ? `\`${apiPath.replace(`{${param}}`, '${' + id + '}')}\`` : `'${apiPath}'`);
    const tests = {
      list: `  it('${method} ${apiPath}: pages the company\\'s ${n.whats} only, filtered by q (${access})', async () => {
    const mine = await create(co, { name: 'Listed one' });
    const theirs = await create(other, { name: 'Listed one' });
    const res = await t.req('get', '${apiPath}?q=listed&per_page=50', { token: ${who}.token }).expect(200);
    const ids = res.body.data.map((x: { id: string }) => x.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(res.body.meta).toMatchObject({ total: ids.length });
    await t.req('get', '${apiPath}').expect(401);
${others.map((a) => `    await t.req('get', '${apiPath}', { token: ${a}.token }).expect(403);`).join('\n')}
    await t.req('get', '${apiPath}?per_page=1000', { token: ${who}.token }).expect(422);
    await t.req('get', '${apiPath}?sort=secret', { token: ${who}.token }).expect(422);
  });
`,
      show: `  it('${method} ${apiPath}: shows the company\\'s ${n.thing.replace(/-/g, ' ')}, 404 for another company\\'s (${access})', async () => {
    const mine = await create(co);
    const theirs = await create(other);
    expect((await t.req('get', ${url('mine.id')}, { token: ${who}.token }).expect(200)).body.data).toMatchObject({ id: mine.id });
    await t.req('get', ${url('theirs.id')}, { token: ${who}.token }).expect(404);
    await t.req('get', ${url('mine.id')}).expect(401);
${others.map((a) => `    await t.req('get', ${url('mine.id')}, { token: ${a}.token }).expect(403);`).join('\n')}
  });
`,
      update: `  it('${method} ${apiPath}: updates the company\\'s ${n.thing.replace(/-/g, ' ')}, 404 for another company\\'s, 422 on bad input (${access})', async () => {
    const mine = await create(co);
    const theirs = await create(other);
    const res = await t.req('${method.toLowerCase()}', ${url('mine.id')}, { token: ${who}.token, body: { name: 'Renamed' } }).expect(200);
    expect(res.body.data).toMatchObject({ id: mine.id, name: 'Renamed' });
    await t.req('${method.toLowerCase()}', ${url('theirs.id')}, { token: ${who}.token, body: { name: 'Mine' } }).expect(404);
    await t.req('${method.toLowerCase()}', ${url('mine.id')}, { token: ${who}.token, body: { name: '', extra: 1 } }).expect(422);
    await t.req('${method.toLowerCase()}', ${url('mine.id')}, { body: { name: 'x' } }).expect(401);
${others.map((a) => `    await t.req('${method.toLowerCase()}', ${url('mine.id')}, { token: ${a}.token, body: { name: 'x' } }).expect(403);`).join('\n')}
  });
`,
      remove: `  it('${method} ${apiPath}: deletes the company\\'s ${n.thing.replace(/-/g, ' ')}, 404 for another company\\'s (${access})', async () => {
    const mine = await create(co);
    const theirs = await create(other);
    await t.req('delete', ${url('theirs.id')}, { token: ${who}.token }).expect(404);
    await t.req('delete', ${url('mine.id')}).expect(401);
${others.map((a) => `    await t.req('delete', ${url('mine.id')}, { token: ${a}.token }).expect(403);`).join('\n')}
    await t.req('delete', ${url('mine.id')}, { token: ${who}.token }).expect(200);
    await t.req('get', \`/api/v1/${n.module}/\${mine.id}\`, { token: co.token }).expect(404);
  });
`,
      create: `  it('${method} ${apiPath}: creates a ${n.thing.replace(/-/g, ' ')}, 422 on bad input (${access})', async () => {
    const res = await t.req('${method.toLowerCase()}', '${apiPath}', { token: ${who}.token, body: { name: 'Made here' } }).expect(201);
    expect(res.body.data).toMatchObject({ name: 'Made here' });
    await t.req('${method.toLowerCase()}', '${apiPath}', { token: ${who}.token, body: { name: '' } }).expect(422);
    await t.req('${method.toLowerCase()}', '${apiPath}', { body: { name: 'x' } }).expect(401);
${others.map((a) => `    await t.req('${method.toLowerCase()}', '${apiPath}', { token: ${a}.token, body: { name: 'x' } }).expect(403);`).join('\n')}
  });
`,
    }[kind];
    tree.overwrite(files.test, beforeMarker(read(tree, files.test), 'nest g route: tests go above this line', tests, files.test));

    // ---- extension list
    if (!seedRoutes(tree).has(`${method} ${apiPath}`)) {
      const ext = read(tree, 'test/routes-extensions.txt');
      tree.overwrite('test/routes-extensions.txt', ext.replace(/\n*$/, '\n') + extensionLine(method, apiPath, access, n) + '\n');
    }
    context.logger.info(`${method} ${apiPath} (${access}) → ${n.Module}Controller#${fn}`);
    return tree;
  };
}

module.exports = { route };
