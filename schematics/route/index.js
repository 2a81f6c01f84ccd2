'use strict';
const { names, words, cap } = require('../names');
const { ensureImport, beforeMarker, read } = require('../edit');
const { seedRoutes } = require('../module-feature');
const { addToSnapshot } = require('../sql-snapshot');

const METHODS = ['GET', 'POST', 'PUT, PATCH', 'DELETE'].flatMap((m) => m.split(', '));
/** Who the generated test calls the route as, per access code (the e2e cast of test/support/fixtures.ts; `admin` and a checked-in driver are made by the test). */
const ACTORS = { CO: 'co', 'CO-B': 'co', CU: 'customer', 'CU-B': 'customer', DR: 'driver', 'DR-B': 'driver', 'DR-IN': 'driver', TOK: 'co', 'TOK-ACT': 'co', AD: 'admin', PUB: null, 'PUB-T': null, NONE: null };
const OPEN = new Set(['PUB', 'PUB-T', 'NONE']);

/**
 * `nest g route <module> <METHOD> <path> --access <code>`: a route of a module made by module-feature, on
 * its records. By method and path: GET on the collection lists (paged), GET on a record shows it, DELETE
 * on a record deletes it (soft), another write on a record updates it (body: its fields, all optional), a
 * write on the collection creates one. Every `{param}` of the path names a record of the module: the last
 * one is the record the route acts on, the ones before it must be reachable too (each 404 otherwise), and
 * a parameter name the tenant sweep does not know yet is added to the module's sweep kind.
 *
 * By access code: a company actor's code (CO, CU, DR, DR-IN, TOK, …) acts with the caller's Scope; `AD`
 * (administrators, of every company: PlatformReach) lists and shows; an open code (PUB, PUB-T, NONE)
 * takes no record id and answers what the module says of itself without a token (a tenant record is never
 * public). Adds the controller method (@Access, and @Extension unless the seed has the route), its DTO,
 * the service and repository methods with their statement snapshot, and a test in the module's e2e file.
 */
function route(options) {
  return (tree, context) => {
    const method = String(options.method).toUpperCase();
    const path = String(options.path);
    const access = String(options.access);
    if (!METHODS.includes(method)) throw new Error(`method must be one of ${METHODS.join(', ')}, not "${options.method}"`);
    if (!path.startsWith('/')) throw new Error(`path must start with "/" (/${options.name}, /${options.name}/{id}), not "${path}"`);
    if (!(access in ACTORS)) throw new Error(`access ${access}: the route generator knows ${Object.keys(ACTORS).join(', ')}`);
    const who = ACTORS[access];

    const n = names(options.name);
    const dir = `src/modules/${n.module}`;
    const files = {
      controller: `${dir}/${n.module}.controller.ts`,
      service: `${dir}/${n.module}.service.ts`,
      repository: `${dir}/${n.thing}.repository.ts`,
      dto: `${dir}/${n.module}.dto.ts`,
      test: `test/${n.module}/${n.module}.e2e.spec.ts`,
      kinds: `test/${n.module}/tenant-kinds.ts`,
    };
    for (const f of Object.values(files)) if (!tree.exists(f)) throw new Error(`${f} not found: \`nest g route\` adds to a module made by \`nest g module-feature\``);

    const segs = path.replace(/^\/+|\/+$/g, '').replace(/^api\/v1\/?/, '').split('/').filter(Boolean);
    if (!segs.length) throw new Error('empty path');
    const isParam = (s) => /^(\{\w+\}|:\w+)$/.test(s);
    const params = segs.filter(isParam).map((s) => s.replace(/[{}:]/g, ''));
    if (new Set(params).size !== params.length) throw new Error(`a path parameter twice in ${path}`);
    const nestPath = segs.map((s) => (isParam(s) ? `:${s.replace(/[{}:]/g, '')}` : s)).join('/');
    const apiPath = `/api/v1/${segs.map((s) => (isParam(s) ? `{${s.replace(/[{}:]/g, '')}}` : s)).join('/')}`;
    const onRecord = isParam(segs[segs.length - 1]);
    let kind = method === 'GET' ? (onRecord ? 'show' : 'list') : method === 'DELETE' ? (onRecord ? 'remove' : null) : onRecord ? 'update' : 'create';
    if (!kind) throw new Error('DELETE needs a record id at the end of the path (/…/{id})');
    if (OPEN.has(access)) {
      if (params.length) throw new Error(`${access} routes take no record id: a tenant's record is never public (use a token route; a by-design public link goes in the sweep's ALLOW_LIST by hand)`);
      if (method !== 'GET') throw new Error(`${access}: the route generator writes open GET routes only (what the module says of itself)`);
      kind = 'about';
    }
    if (access === 'AD' && !['list', 'show'].includes(kind)) throw new Error('AD: the route generator writes administrators\' lists and reads (every company\'s records); a write acts in one company: use a company code');
    const target = params[params.length - 1];
    const parents = params.slice(0, -1);
    const ids = params.map((p) => `${p}Id`);
    const parentIds = parents.map((p) => `${p}Id`);
    const targetId = target ? `${target}Id` : null;

    let controller = read(tree, files.controller);
    const fixed = segs.filter((s) => !isParam(s)).flatMap(words);
    let fn = kind;
    const taken = (f) => new RegExp(`^  (async )?${f}\\(`, 'm').test(controller);
    if (taken(fn)) fn = [kind, ...fixed].map((w, i) => (i ? cap(w) : w)).join(''); // showInvoicesLines, listAdminInvoices
    if (taken(fn)) throw new Error(`${files.controller} has a method ${fn} already`);
    const decorator = cap(method.toLowerCase());
    if (new RegExp(`@${decorator}\\('${nestPath}'\\)`).test(controller)) throw new Error(`${method} ${apiPath} is there already`);
    const Fn = cap(fn);
    const Dto = `${n.Thing}${Fn}${kind === 'list' ? 'Query' : 'Body'}`;
    const one = n.thing.replace(/-/g, ' ');
    const summary = `${{ list: `List ${n.whats}`, show: `Show a ${one}`, update: `Update a ${one}`, remove: `Delete a ${one} (soft)`, create: `Create a ${one}`, about: `About the ${n.whats} module` }[kind]}${access === 'AD' ? ' of any company' : ''} (extension: generated module ${n.module})`;
    const svc = n.moduleCamel;
    const extension = seedRoutes().has(`${method} ${apiPath}`) ? '' : `  @Extension('generated route of module ${n.module} (README "Adding a module")')\n`;
    const AboutDto = `${n.Module}AboutDto`;

    // ---- controller
    const scopeArg = access === 'AD' ? [] : [`@CurrentScope() scope: Scope`];
    const idArgs = params.map((p) => `@IdParam('${p}') ${p}Id: string`);
    const args = {
      list: [...scopeArg, `@Query() q: ${Dto}`],
      show: [...scopeArg, ...idArgs],
      update: [`@CurrentActor() actor: Actor`, ...scopeArg, ...idArgs, `@Body() dto: ${Dto}`],
      remove: [`@CurrentActor() actor: Actor`, ...scopeArg, ...idArgs],
      create: [`@CurrentActor() actor: Actor`, ...scopeArg, ...idArgs, `@Body() dto: ${Dto}`],
      about: [],
    }[kind];
    const scopeCall = access === 'AD' ? [] : ['scope'];
    const call = {
      list: [...scopeCall, 'q'],
      show: [...scopeCall, ...ids],
      update: ['actor', ...scopeCall, ...ids, 'dto'],
      remove: ['actor', ...scopeCall, ...ids],
      create: ['actor', ...scopeCall, ...ids, 'dto'],
      about: [],
    }[kind].join(', ');
    const endpoint = {
      list: `{ summary: '${summary}', type: ${n.Thing}Dto, list: true, errors: [422] }`,
      show: `{ summary: '${summary}', type: ${n.Thing}Dto, errors: [404] }`,
      update: `{ summary: '${summary}', type: ${n.Thing}Dto, errors: [404, 422] }`,
      remove: `{ summary: '${summary}', errors: [404] }`,
      create: `{ summary: '${summary}', type: ${n.Thing}Dto, status: 201, errors: [${parents.length || targetId ? '404, ' : ''}422] }`,
      about: `{ summary: '${summary}', type: ${AboutDto} }`,
    }[kind];
    controller = beforeMarker(
      controller,
      'nest g route: routes go above this line',
      `  @${decorator}('${nestPath}')
  @Access('${access}')
${extension}${params.map((p) => `  @ApiIdParam('${p}')\n`).join('')}  @Endpoint(${endpoint})
  ${kind === 'remove' ? 'async ' : ''}${fn}(${args.join(', ')}) {
    ${kind === 'remove' ? 'await ' : 'return '}this.${svc}.${fn}(${call});
  }
`,
      files.controller,
    );
    controller = ensureImport(controller, decorator, '@nestjs/common');
    if (extension) controller = ensureImport(controller, 'Extension', '../../common/access/access.decorator');
    if (kind === 'list') controller = ensureImport(controller, 'Query', '@nestjs/common');
    if (kind === 'update' || kind === 'create') controller = ensureImport(controller, 'Body', '@nestjs/common');
    if (['update', 'remove', 'create'].includes(kind)) {
      controller = ensureImport(controller, 'Actor', '../../common/access/actor');
      controller = ensureImport(controller, 'CurrentActor', '../../common/access/actor');
    }
    if (params.length) {
      controller = ensureImport(controller, 'ApiIdParam', '../../common/http/id-param');
      controller = ensureImport(controller, 'IdParam', '../../common/http/id-param');
    }
    if (kind === 'list' || kind === 'update' || kind === 'create') controller = ensureImport(controller, Dto, `./${n.module}.dto`);
    controller = ensureImport(controller, kind === 'about' ? AboutDto : `${n.Thing}Dto`, `./${n.module}.dto`);
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
        `/** \`${method} ${apiPath}\`'s body. */\nexport class ${Dto} {\n  @TextField({ max: 200, ${kind === 'update' ? 'optional: true, ' : ''}example: 'Second ${one}' }) name${kind === 'update' ? '?' : ''}: string;\n}\n`,
        files.dto,
      );
      dto = ensureImport(dto, 'TextField', '../../common/validation/fields');
    } else if (kind === 'about' && !dto.includes(`class ${AboutDto} `)) {
      dto = beforeMarker(
        dto,
        'nest g route: DTOs go above this line',
        `/** What the ${n.whats} module says of itself without a token (no tenant's data). */\nexport class ${AboutDto} {\n  @ApiProperty({ example: '${n.module}' }) module: string;\n  @ApiProperty({ example: 'Generated module ${n.module}' }) description: string;\n}\n`,
        files.dto,
      );
    }
    tree.overwrite(files.dto, dto);

    // ---- service
    let service = read(tree, files.service);
    const reach = access === 'AD' ? 'reach' : 'scope';
    const parentChecks = parentIds.map((id) => `    await this.${svc}.find(scope, ${id}); // a parent record: 404 unless the scope reaches it\n`).join('');
    const idParams = ids.map((id) => `${id}: string`);
    const body = {
      list:
        access === 'AD'
          ? `  /** \`${method} ${apiPath}\`: a page of every company's ${n.whats} (administrators). */
  async ${fn}(q: ${Dto}): Promise<Page<${n.Thing}Dto>> {
    const page = await this.${svc}.${fn}(new PlatformReach(), q);
    return new Page(page.items.map(${n.Thing}Dto.of), page.meta);
  }
`
          : `  /** \`${method} ${apiPath}\`: a page of the scope's ${n.whats}. */
  async ${fn}(scope: Scope, q: ${Dto}): Promise<Page<${n.Thing}Dto>> {
    const page = await this.${svc}.${fn}(scope, q);
    return new Page(page.items.map(${n.Thing}Dto.of), page.meta);
  }
`,
      show:
        access === 'AD'
          ? `  /** \`${method} ${apiPath}\`: any company's ${one} (administrators); 404 when there is none. */
  async ${fn}(${idParams.join(', ')}): Promise<${n.Thing}Dto> {
    const ${reach} = new PlatformReach();
${parentIds.map((id) => `    await this.${svc}.findAny(reach, ${id});\n`).join('')}    return ${n.Thing}Dto.of(await this.${svc}.findAny(reach, ${targetId}));
  }
`
          : `  /** \`${method} ${apiPath}\`. */
  async ${fn}(scope: Scope, ${idParams.join(', ')}): Promise<${n.Thing}Dto> {
${parentChecks}    return ${n.Thing}Dto.of(await this.${svc}.find(scope, ${targetId}));
  }
`,
      update: `  /** \`${method} ${apiPath}\`: the given fields (a record the scope does not reach is 404). */
  async ${fn}(actor: Actor, scope: Scope, ${idParams.join(', ')}, d: ${Dto}): Promise<${n.Thing}Dto> {
    const row = await this.uow.transaction(async () => {
${parentChecks.replace(/^    /gm, '      ')}      return this.${svc}.${fn}(actor, scope, ${targetId}, { name: d.name });
    });
    return ${n.Thing}Dto.of(row);
  }
`,
      remove: `  /** \`${method} ${apiPath}\`: soft delete (a record the scope does not reach is 404). */
  ${fn}(actor: Actor, scope: Scope, ${idParams.join(', ')}): Promise<void> {
    return this.uow.transaction(async () => {
${parentChecks.replace(/^    /gm, '      ')}      await this.${svc}.${fn}(actor, scope, ${targetId});
    });
  }
`,
      create: `  /** \`${method} ${apiPath}\`. */
  async ${fn}(actor: Actor, scope: Scope, ${[...idParams, `d: ${Dto}`].join(', ')}): Promise<${n.Thing}Dto> {
    const row = await this.uow.transaction(async () => {
${params.map((p) => `      await this.${svc}.find(scope, ${p}Id); // 404 unless the scope reaches it\n`).join('')}      return this.${svc}.create(actor, scope, { name: d.name });
    });
    return ${n.Thing}Dto.of(row);
  }
`,
      about: `  /** \`${method} ${apiPath}\` (${access}): what the module says of itself; no tenant's data. */
  ${fn}(): ${AboutDto} {
    return { module: '${n.module}', description: 'Generated module ${n.module}' };
  }
`,
    }[kind].replace(/\(, /, '(');
    service = beforeMarker(service, 'nest g route: service methods go above this line', body, files.service);
    if (kind === 'list') service = ensureImport(service, 'Page', '../../common/http/envelope');
    if (access === 'AD') service = ensureImport(service, 'PlatformReach', '../../common/access/tenant-policy');
    if (kind === 'list' || kind === 'update' || kind === 'create') service = ensureImport(service, Dto, `./${n.module}.dto`);
    if (kind === 'about') service = ensureImport(service, AboutDto, `./${n.module}.dto`);
    tree.overwrite(files.service, service);

    // ---- repository
    let repo = read(tree, files.repository);
    const repoMethods = [];
    if (kind === 'list' && access !== 'AD') {
      repoMethods.push([
        'list',
        fn,
        `  /** A page of the scope's live ${n.whats} (\`q\` on the name). */
  @GenerateSql({ name: 'no filter', params: [SAMPLE_SCOPE, {}] }, { name: 'with filters', params: [SAMPLE_SCOPE, { q: 'spring', sort: 'name', page: 2, per_page: 10 }] })
  ${fn}(scope: Scope, q: ${Dto}): Promise<Page<${n.Thing}>> {
    const qb = scopedQuery(this.m, ${n.Thing}, scope, 'x');
    if (q.q) qb.andWhere('x.name ILIKE :q', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { created_at: 'x.createdAt', name: 'x.name' } });
  }
`,
      ]);
    }
    if (kind === 'list' && access === 'AD') {
      repoMethods.push([
        'platformList',
        fn,
        `  /** A page of the live ${n.whats} of every company \`reach\` covers (administrators; \`q\` on the name). */
  @GenerateSql({ name: 'no filter', params: () => [new PlatformReach(), {}] }, { name: 'with filters', params: () => [new PlatformReach(SQL_SAMPLE.companyId), { q: 'spring', sort: 'name', page: 2, per_page: 10 }] })
  ${fn}(reach: PlatformReach, q: ${Dto}): Promise<Page<${n.Thing}>> {
    const qb = platformQuery(this.m, ${n.Thing}, reach, 'x');
    if (q.q) qb.andWhere('x.name ILIKE :q', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { created_at: 'x.createdAt', name: 'x.name' } });
  }
`,
      ]);
    }
    if (kind === 'show' && access === 'AD' && !/^  findAny\(/m.test(repo)) {
      repoMethods.push([
        'findAny',
        'findAny',
        `  /** A live ${one} of any company \`reach\` covers (administrators), else 404. */
  @GenerateSql({ params: () => [new PlatformReach(), SQL_SAMPLE.id] })
  async findAny(reach: PlatformReach, id: string): Promise<${n.Thing}> {
    const row = await platformQuery(this.m, ${n.Thing}, reach, 'x').andWhere('x.id = :id', { id }).getOne();
    if (!row) throw ApiError.notFound('${n.what}');
    return row;
  }
`,
      ]);
    }
    if (kind === 'update')
      repoMethods.push([
        'update',
        fn,
        `  /** The given values on a live row the scope reaches (its \`${n.thingSnake}.updated\` event in the same unit); else 404. */
  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id, { name: 'Sample' }] })
  ${fn}(actor: ActorRef, scope: Scope, id: string, values: Partial<${n.Thing}>): Promise<${n.Thing}> {
    return this.records.update(actor, scope.companyId, id, values);
  }
`,
      ]);
    if (kind === 'remove')
      repoMethods.push([
        'remove',
        fn,
        `  /** Soft-deletes a live row the scope reaches (its \`${n.thingSnake}.deleted\` event in the same unit); else 404. */
  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id] })
  ${fn}(actor: ActorRef, scope: Scope, id: string): Promise<void> {
    return this.records.remove(actor, scope.companyId, id);
  }
`,
      ]);
    for (const [k, name, text] of repoMethods) {
      repo = beforeMarker(repo, 'nest g route: repository methods go above this line', text, files.repository);
      addToSnapshot(tree, n, k, name);
    }
    if (kind === 'list') {
      repo = ensureImport(repo, access === 'AD' ? 'platformQuery' : 'scopedQuery', '../../common/access/tenant-policy');
      repo = ensureImport(repo, 'Page', '../../common/http/envelope');
      repo = ensureImport(repo, 'likePattern', '../../common/http/pagination');
      repo = ensureImport(repo, 'paginate', '../../common/http/pagination');
      repo = ensureImport(repo, Dto, `./${n.module}.dto`, true);
    }
    if (access === 'AD') repo = ensureImport(repo, 'PlatformReach', '../../common/access/tenant-policy');
    if (repoMethods.some(([k]) => k === 'findAny')) {
      repo = ensureImport(repo, 'platformQuery', '../../common/access/tenant-policy');
      repo = ensureImport(repo, 'ApiError', '../../common/http/api-error');
    }
    tree.overwrite(files.repository, repo);

    // ---- the sweep: a parameter name it does not know names this module's kind
    let kinds = read(tree, files.kinds);
    const world = tree.read('test/support/tenant-world.ts')?.toString('utf8') ?? '';
    const known = (p) => new RegExp(`^\\s*'?${p}'?: '`, 'm').test(world) || new RegExp(`params: \\[[^\\]]*'${p}'`).test(kinds);
    for (const p of params.filter((p) => !known(p))) kinds = kinds.replace(/(params: \[[^\]]*)\]/, `$1, '${p}']`);
    tree.overwrite(files.kinds, kinds);

    // ---- test
    tree.overwrite(files.test, beforeMarker(read(tree, files.test), 'nest g route: tests go above this line', testOf({ kind, method, apiPath, access, who, params, n, one }), files.test));
    let test = read(tree, files.test);
    if (access === 'AD') test = ensureImport(test, 'adminToken', '../support/admin');
    if (access === 'DR-IN') test = ensureImport(test, 'checkInDriver', '../support/fixtures');
    tree.overwrite(files.test, test);

    context.logger.info(`${method} ${apiPath} (${access}) → ${n.Module}Controller#${fn}`);
    return tree;
  };
}

/** The generated test of one route: its happy path, its access rule, another company's ids (404), bad input (422). */
function testOf({ kind, method, apiPath, access, who, params, n, one }) {
  const m = method.toLowerCase();
  const others = ['co', 'customer', 'driver'].filter((a) => a !== who && !['TOK', 'TOK-ACT'].includes(access));
  const url = (values) => (params.length ? `\`${params.reduce((s, p, i) => s.replace(`{${p}}`, '${' + values[i] + '}'), apiPath)}\`` : `'${apiPath}'`);
  const mineIds = params.map((_, i) => (i === params.length - 1 ? 'mine.id' : `parent${i}.id`));
  const setup = [
    ...(access === 'AD' ? ['    const admin = { token: await adminToken(t, ADMIN_KEY) };'] : []),
    ...(access === 'DR-IN' ? ['    await checkInDriver(t, co, driver);'] : []),
    ...params.slice(0, -1).map((_, i) => `    const parent${i} = await create(co);`),
  ].join('\n');
  const crossed = params.map((_, i) => url(mineIds.map((id, j) => (j === i ? 'theirs.id' : id)))); // one of the ids another company's
  const denied = (call) => [`    await t.req(${call(null)}).expect(401);`, ...others.map((a) => `    await t.req(${call(a)}).expect(403);`)].join('\n');
  const body = (b) => (b ? `, body: ${b}` : '');
  const opts = (token, b) => (token ? `{ token: ${token}.token${body(b)} }` : b ? `{ body: ${b} }` : '');
  const req = (u, token, b) => `'${m}', ${u}${opts(token, b) ? `, ${opts(token, b)}` : ''}`;
  const title = `${method} ${apiPath} (${access})`;
  switch (kind) {
    case 'about':
      return `  it("${title}: answers without a token", async () => {
    expect((await t.req('get', '${apiPath}').expect(200)).body.data).toEqual({ module: '${n.module}', description: 'Generated module ${n.module}' });
    await t.req('get', '${apiPath}', { token: co.token }).expect(200);
  });
`;
    case 'list':
      return `  it("${title}: pages the ${access === 'AD' ? "companies'" : "company's"} ${n.whats}${access === 'AD' ? '' : ' only'}, filtered by q", async () => {
${setup}
    const mine = await create(co, { name: 'Listed one' });
    const theirs = await create(other, { name: 'Listed one' });
    const res = await t.req('get', '${apiPath}?q=listed&per_page=50', { token: ${who}.token }).expect(200);
    const ids = res.body.data.map((x: { id: string }) => x.id);
    expect(ids).toContain(mine.id);
    expect(ids)${access === 'AD' ? '' : '.not'}.toContain(theirs.id);
    expect(res.body.meta).toMatchObject({ total: ids.length });
${denied((a) => `'get', '${apiPath}'${a ? `, { token: ${a}.token }` : ''}`)}
    await t.req('get', '${apiPath}?per_page=1000', { token: ${who}.token }).expect(422);
    await t.req('get', '${apiPath}?sort=secret', { token: ${who}.token }).expect(422);
  });
`;
    case 'show':
      return `  it("${title}: shows ${access === 'AD' ? "any company's" : "the company's"} ${one}${access === 'AD' ? '' : ", 404 for another company's"}", async () => {
${setup}
    const mine = await create(co);
    const theirs = await create(other);
    expect((await t.req(${req(url(mineIds), who)}).expect(200)).body.data).toMatchObject({ id: mine.id });
${access === 'AD' ? `    expect((await t.req(${req(url(mineIds.map((id, j) => (j === params.length - 1 ? 'theirs.id' : id))), who)}).expect(200)).body.data).toMatchObject({ id: theirs.id });\n    await t.req('get', ${url(mineIds.map(() => 'ABSENT_ID'))}, { token: admin.token }).expect(404);` : crossed.map((u) => `    await t.req(${req(u, who)}).expect(404);`).join('\n')}
${denied((a) => req(url(mineIds), a))}
  });
`;
    case 'update':
      return `  it("${title}: updates the company's ${one}, 404 for another company's, 422 on bad input", async () => {
${setup}
    const mine = await create(co);
    const theirs = await create(other);
    const res = await t.req(${req(url(mineIds), who, "{ name: 'Renamed' }")}).expect(200);
    expect(res.body.data).toMatchObject({ id: mine.id, name: 'Renamed' });
${crossed.map((u) => `    await t.req(${req(u, who, "{ name: 'Mine' }")}).expect(404);`).join('\n')}
    await t.req(${req(url(mineIds), who, "{ name: '', extra: 1 }")}).expect(422);
${denied((a) => req(url(mineIds), a, "{ name: 'x' }"))}
  });
`;
    case 'remove':
      return `  it("${title}: deletes the company's ${one}, 404 for another company's", async () => {
${setup}
    const mine = await create(co);
    const theirs = await create(other);
${crossed.map((u) => `    await t.req(${req(u, who)}).expect(404);`).join('\n')}
${denied((a) => req(url(mineIds), a))}
    await t.req(${req(url(mineIds), who)}).expect(200);
    await t.req('get', \`/api/v1/${n.module}/\${mine.id}\`, { token: co.token }).expect(404);
  });
`;
    case 'create': {
      const ids = params.map((_, i) => `parent${i}.id`);
      const u = url(ids);
      return `  it("${title}: creates a ${one}, ${params.length ? "404 under another company's, " : ''}422 on bad input", async () => {
${[setup, ...(params.length ? [`    const parent${params.length - 1} = await create(co);`, '    const theirs = await create(other);'] : [])].filter(Boolean).join('\n')}
    const res = await t.req(${req(u, who, "{ name: 'Made here' }")}).expect(201);
    expect(res.body.data).toMatchObject({ name: 'Made here' });
${params.map((_, i) => `    await t.req(${req(url(ids.map((id, j) => (j === i ? 'theirs.id' : id))), who, "{ name: 'x' }")}).expect(404);`).join('\n')}
    await t.req(${req(u, who, "{ name: '' }")}).expect(422);
${denied((a) => req(u, a, "{ name: 'x' }"))}
  });
`;
    }
    default:
      throw new Error(kind);
  }
}

module.exports = { route };
