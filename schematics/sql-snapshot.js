'use strict';
/**
 * The statement snapshot of a generated repository (test/database/sql/<Repository>.sql, checked by
 * test/database/sql-snapshots.spec.ts): the SQL TypeORM sends for each generated method's sample, kept
 * section by section in the spec's order (methods sorted, samples in declaration order).
 */
const cols = (a) => ['id', 'created_at', 'updated_at', 'company_id', 'name', 'deleted_at'].map((c) => `"${a}"."${c}" AS "${a}_${c}"`).join(', ');

/** The sections (header → statements) of one method of a kind: create, find, list, update, remove, findAny, platformList. */
function sections(n, kind, fn) {
  const R = `${n.Thing}Repository`;
  const T = n.Thing;
  const one = `SELECT ${cols(T)} FROM "${n.table}" "${T}" WHERE ( (("${T}"."company_id" = $1) AND ("${T}"."id" = $2)) ) AND ( "${T}"."deleted_at" IS NULL ) LIMIT 1`;
  const x = `SELECT ${cols('x')} FROM "${n.table}" "x" WHERE `;
  switch (kind) {
    case 'create':
      return [[`-- ${R}.${fn}`, `INSERT INTO "${n.table}"("id", "created_at", "updated_at", "company_id", "name", "deleted_at") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, DEFAULT) RETURNING "id", "created_at", "updated_at", "deleted_at";`]];
    case 'find':
      return [[`-- ${R}.${fn}`, `${one};`]];
    case 'update':
    case 'remove':
      return [[`-- ${R}.${fn}`, `${one} FOR UPDATE;`]];
    case 'findAny':
      return [[`-- ${R}.${fn}`, `${x}( 1 = 1 AND "x"."id" = $1 ) AND ( "x"."deleted_at" IS NULL );`]];
    case 'platformList':
      return [
        [`-- ${R}.${fn} (no filter)`, `${x}( 1 = 1 ) AND ( "x"."deleted_at" IS NULL ) ORDER BY "x"."created_at" DESC, "x"."id" DESC LIMIT 20 OFFSET 0;`],
        [
          `-- ${R}.${fn} (with filters)`,
          `${x}( 1 = 1 AND "x"."company_id" = $1 AND "x"."name" ILIKE $2 ) AND ( "x"."deleted_at" IS NULL ) ORDER BY "x"."name" ASC, "x"."id" ASC LIMIT 10 OFFSET 10;`,
          `SELECT COUNT(1) AS "cnt" FROM "${n.table}" "x" WHERE ( 1 = 1 AND "x"."company_id" = $1 AND "x"."name" ILIKE $2 ) AND ( "x"."deleted_at" IS NULL );`,
        ],
      ];
    case 'list':
      return [
        [`-- ${R}.${fn} (no filter)`, `${x}( "x"."company_id" = $1 ) AND ( "x"."deleted_at" IS NULL ) ORDER BY "x"."created_at" DESC, "x"."id" DESC LIMIT 20 OFFSET 0;`],
        [
          `-- ${R}.${fn} (with filters)`,
          `${x}( "x"."company_id" = $1 AND "x"."name" ILIKE $2 ) AND ( "x"."deleted_at" IS NULL ) ORDER BY "x"."name" ASC, "x"."id" ASC LIMIT 10 OFFSET 10;`,
          `SELECT COUNT(1) AS "cnt" FROM "${n.table}" "x" WHERE ( "x"."company_id" = $1 AND "x"."name" ILIKE $2 ) AND ( "x"."deleted_at" IS NULL );`,
        ],
      ];
    default:
      return [];
  }
}

const fileOf = (n) => `test/database/sql/${n.Thing}Repository.sql`;

/** Adds the sections of `fn` (a method of `kind`) to the repository's snapshot, creating it when absent. */
function addToSnapshot(tree, n, kind, fn) {
  const R = `${n.Thing}Repository`;
  const file = fileOf(n);
  const head = `-- ${R}: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)`;
  const text = tree.exists(file) ? tree.read(file).toString('utf8') : `${head}\n`;
  const [first, ...rest] = text.replace(/\n+$/, '').split(/\n\n(?=-- )/);
  const parts = rest.map((p) => p.split('\n'));
  parts.push(...sections(n, kind, fn));
  const method = (p) => /^-- \S+?\.(\w+)/.exec(p[0])[1];
  // The spec sorts method names with Array#sort (code units); a method's samples keep their order.
  const sorted = parts.map((p, i) => ({ p, i })).sort((a, b) => (method(a.p) < method(b.p) ? -1 : method(a.p) > method(b.p) ? 1 : a.i - b.i));
  const out = [first, ...sorted.map(({ p }) => p.join('\n'))].join('\n\n') + '\n';
  if (tree.exists(file)) tree.overwrite(file, out);
  else tree.create(file, out);
}

module.exports = { addToSnapshot };
