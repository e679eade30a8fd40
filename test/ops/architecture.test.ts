// docs/architecture.md's rules, read from the code: every file of src/ (but the web app)
// sits in exactly one layer and imports only the layers its row allows; no two folders
// (or top-level files) import each other, however long the way round; the SQL that
// writes a table is in the folder that owns it, or in a place this file names with its
// reason. The layers, the owners and those places are written once, here, and the test
// also reads the page's tables, so that the page and the rule cannot drift apart.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, it } from 'node:test';

interface Layer {
  name: string;
  /** Folders (`http/`) and top-level files (`app.ts`) of src/. */
  members: string[];
  /** The other layers its files may import (a folder may always import itself). */
  imports: string[];
}

const LAYERS: Layer[] = [
  // The API's objects, declared once; the web app shares them (types only).
  { name: 'shapes', members: ['shapes/'], imports: [] },
  {
    name: 'base',
    members: [
      'errors.ts',
      'identifiers.ts',
      'dates.ts',
      'json-text.ts',
      'log.ts',
      'config.ts',
      'embedded.ts',
      'heap-growth.ts',
    ],
    imports: ['shapes', 'base'],
  },
  // http/ and db/ do not import each other: HTTP knows no SQL, SQL no HTTP.
  { name: 'toolkit', members: ['http/', 'db/'], imports: ['shapes', 'base'] },
  { name: 'rules', members: ['policy.ts', 'validate.ts'], imports: ['shapes', 'base'] },
  {
    name: 'resources',
    members: [
      'projects/',
      'activities/',
      'times/',
      'timer/',
      'reports/',
      'approvals/',
      'kept-rows/',
      'users/',
      'roles/',
      'auth/',
      'info/',
      'idempotency/',
      'tokens/',
    ],
    imports: ['shapes', 'base', 'toolkit', 'rules', 'resources'],
  },
  {
    // Other trackers' exports → rows → entries: shared by a command and a route.
    name: 'importers',
    members: ['importers/'],
    imports: ['shapes', 'base', 'toolkit', 'rules', 'resources'],
  },
  {
    name: 'commands',
    members: ['admin/'],
    imports: ['shapes', 'base', 'toolkit', 'rules', 'resources', 'importers'],
  },
  {
    name: 'wiring',
    members: [
      'app.ts',
      'routes.ts',
      'server.ts',
      'main.ts',
      'metrics.ts',
      'openapi/',
      'web-assets.ts',
      'web-build.ts',
    ],
    imports: ['shapes', 'base', 'toolkit', 'rules', 'resources', 'importers', 'commands', 'wiring'],
  },
];

/** The web app: a program of its own, in no layer (docs/web.md). */
const WEB = 'web/';

/**
 * Server modules the web app may import (pure code both sides share, importing nothing
 * but each other): the API's shapes, whose types the web app uses.
 */
const SHARED_WITH_WEB: string[] = readdirSync('src/shapes')
  .filter((f) => f.endsWith('.ts'))
  .map((f) => `shapes/${f}`);

/** Which folder's SQL writes each table of sql/ (and db/migrate.ts's own). */
const TABLE_OWNERS: Record<string, string[]> = {
  'db/': ['settings', 'schema_migrations'],
  'users/': ['users', 'user_org_roles', 'signed_out_tokens'],
  'roles/': ['org_roles'],
  'activities/': ['activities', 'activity_revisions'],
  'projects/': [
    'projects',
    'project_slugs',
    'project_revisions',
    'project_users',
    'project_json',
    'project_slug_lists',
  ],
  'times/': [
    'times',
    'time_activities',
    'time_revisions',
    'time_user_rows',
    'activity_sets',
    'bulk_writes',
  ],
  'timer/': ['timers'],
  'reports/': ['time_month_totals'],
  'approvals/': ['week_parts', 'week_part_decisions', 'lock_date'],
  'auth/': ['login_failures', 'oidc_sign_ins', 'oidc_codes', 'renewed_tokens'],
  'idempotency/': ['idempotency_keys'],
  'tokens/': ['personal_tokens'],
  'importers/': ['import_sources'],
  'kept-rows/': ['kept_rows'],
};

/** SQL that writes another folder's table; `*`: a table named at run time. */
const FOREIGN_WRITES: { file: string; table: string; why: string }[] = [
  {
    file: 'admin/instance-tables.ts',
    table: '*',
    why: '`admin import` and the migration from timesync-node load every table of an empty database, row by row, in the schema’s order',
  },
  {
    file: 'times/store.ts',
    table: 'time_month_totals',
    why: 'an import batch (`insertBatch`) adds its entries to the per-month totals in one statement, as the insert trigger of sql/006 does for every other write (sql/018)',
  },
];

type Files = Map<string, string>;

/** Every .ts/.tsx file of src/, by its path inside src/. */
function sourceFiles(): Files {
  const files: Files = new Map();
  const walk = (dir: string) => {
    for (const e of readdirSync(`src/${dir}`, { withFileTypes: true })) {
      const path = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(e.name)) files.set(path, readFileSync(`src/${path}`, 'utf8'));
    }
  };
  walk('');
  return files;
}

/** `http/` for src/http/router.ts, `app.ts` for src/app.ts. */
const unitOf = (path: string): string => {
  const slash = path.indexOf('/');
  return slash < 0 ? path : path.slice(0, slash + 1);
};

/**
 * The files of ours a file imports: `import … from`, `export … from`, `import '…'`,
 * `import('…')` (also in types) and `require('…')`; type-only imports count too. Each
 * is resolved to a path inside src/ (`..` past src/ gives a path starting with `../`).
 */
function importsOf(files: Files, path: string): string[] {
  const text = files.get(path) as string;
  const found: string[] = [];
  for (const m of text.matchAll(/\b(?:from|import|require)\s*\(?\s*['"](\.[^'"]*)['"]/g)) {
    const spec = m[1] as string;
    const joined = posix.normalize(posix.join(posix.dirname(path), spec));
    const target =
      [joined, `${joined}.ts`, `${joined}.tsx`, `${joined}/index.ts`].find((p) => files.has(p)) ??
      (existsSync(`src/${joined}`) ? joined : undefined); // the web app's CSS
    assert.ok(target ?? joined.startsWith('../'), `${path}: cannot resolve '${spec}'`);
    found.push(target ?? joined);
  }
  return found;
}

/** Each import a layer does not allow, as one line. */
function layerViolations(files: Files, layers: Layer[]): string[] {
  const layerOf = new Map(layers.flatMap((l) => l.members.map((m) => [m, l] as const)));
  const problems: string[] = [];
  for (const path of files.keys()) {
    const unit = unitOf(path);
    if (unit === WEB) continue;
    const layer = layerOf.get(unit);
    if (!layer) {
      problems.push(`src/${path}: ${unit} is in no layer (add it to a row of the table)`);
      continue;
    }
    for (const target of new Set(importsOf(files, path))) {
      const to = unitOf(target);
      if (to === unit) continue;
      const toLayer = layerOf.get(to);
      if (toLayer && layer.imports.includes(toLayer.name)) continue;
      problems.push(
        `src/${path} (${layer.name}) imports src/${target}` +
          (toLayer ? ` (${toLayer.name}); ${layer.name} imports ${layer.imports.join(', ')}` : ''),
      );
    }
  }
  return problems;
}

/**
 * Folders and top-level files that import each other, directly or round a longer way:
 * each strongly connected group of the import graph (Tarjan), with one file per edge.
 */
function importCycles(files: Files): string[] {
  const edges = new Map<string, Map<string, string>>(); // unit → unit → an importing file
  for (const path of files.keys()) {
    const from = unitOf(path);
    if (from === WEB) continue;
    for (const target of importsOf(files, path)) {
      const to = unitOf(target);
      if (to === from || !files.has(target)) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const out = edges.get(from) as Map<string, string>;
      if (!out.has(to)) out.set(to, `src/${path} → src/${target}`);
    }
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (u: string) => {
    index.set(u, index.size);
    low.set(u, index.get(u) as number);
    stack.push(u);
    onStack.add(u);
    for (const v of edges.get(u)?.keys() ?? []) {
      if (!index.has(v)) {
        visit(v);
        low.set(u, Math.min(low.get(u) as number, low.get(v) as number));
      } else if (onStack.has(v)) {
        low.set(u, Math.min(low.get(u) as number, index.get(v) as number));
      }
    }
    if (low.get(u) === index.get(u)) {
      const group: string[] = [];
      let v: string;
      do {
        v = stack.pop() as string;
        onStack.delete(v);
        group.push(v);
      } while (v !== u);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const u of [...edges.keys()].sort()) if (!index.has(u)) visit(u);
  return groups.map((group) => {
    const inside = group.flatMap((u) =>
      [...(edges.get(u) ?? [])].filter(([v]) => group.includes(v)).map(([, via]) => via),
    );
    return `${group.join(', ')} import each other: ${inside.join('; ')}`;
  });
}

/** Where the server's stores are made (app.ts), and the admin commands' own. */
const STORE_MAKERS = ['app.ts', 'admin/'];

/** Calls of a `create…Store(` outside STORE_MAKERS and the store's own folder. */
function storesMadeElsewhere(files: Files): string[] {
  const problems: string[] = [];
  for (const [path, text] of files) {
    const unit = unitOf(path);
    if (unit === WEB || STORE_MAKERS.includes(unit)) continue;
    for (const m of text.matchAll(/(?<!function )\bcreate\w*Store\(/g)) {
      problems.push(`src/${path} makes a store: ${m[0]}`);
    }
  }
  return problems;
}

/** The web app's imports of server code that is not shared with it. */
function webViolations(files: Files, shared: string[]): string[] {
  const problems: string[] = [];
  for (const path of files.keys()) {
    const isShared = shared.includes(path);
    if (unitOf(path) !== WEB && !isShared) continue;
    for (const target of importsOf(files, path)) {
      if (unitOf(target) === WEB && !isShared) continue;
      if (shared.includes(target)) continue;
      problems.push(`src/${path} imports src/${target}, not shared with the web app`);
    }
  }
  return problems;
}

/** The tables sql/ leaves (created, less dropped, renames followed), and db/migrate.ts's. */
function schemaTables(): Set<string> {
  const tables = new Set<string>();
  for (const file of readdirSync('sql').sort()) {
    const sql = readFileSync(`sql/${file}`, 'utf8');
    for (const m of sql.matchAll(
      /\b(CREATE TABLE(?: IF NOT EXISTS)?|DROP TABLE(?: IF EXISTS)?)\s+(\w+)|ALTER TABLE (\w+) RENAME TO (\w+)/g,
    )) {
      if (m[1]?.startsWith('CREATE')) tables.add(m[2] as string);
      else if (m[1]) tables.delete(m[2] as string);
      else {
        tables.delete(m[3] as string);
        tables.add(m[4] as string);
      }
    }
  }
  const migrate = readFileSync('src/db/migrate.ts', 'utf8');
  for (const m of migrate.matchAll(/CREATE TABLE IF NOT EXISTS (\w+)/g)) tables.add(m[1] as string);
  return tables;
}

/** INSERT, REPLACE, UPDATE and DELETE statements of a file: the tables they write. */
function writtenTables(text: string): string[] {
  const tables: string[] = [];
  const statement =
    /\b(?:INSERT(?: OR \w+)? INTO|REPLACE INTO|UPDATE(?: OR \w+)?|DELETE FROM)\s+(\$\{|\w+)/g;
  for (const m of text.matchAll(statement)) {
    const table = m[1] as string;
    if (table === 'SET') continue; // ON CONFLICT … DO UPDATE SET: the same table
    tables.push(table === '${' ? '*' : table);
  }
  return tables;
}

/** Writes outside the owner's folder not in the list, and entries of the list unused. */
function foreignWrites(
  files: Files,
  owners: Record<string, string[]>,
  allowed: { file: string; table: string }[],
): string[] {
  const ownerOf = new Map(
    Object.entries(owners).flatMap(([unit, tables]) => tables.map((t) => [t, unit] as const)),
  );
  const used = new Set<string>();
  const problems: string[] = [];
  for (const [path, text] of files) {
    if (unitOf(path) === WEB) continue;
    for (const table of new Set(writtenTables(text))) {
      const owner = ownerOf.get(table);
      if (owner === unitOf(path)) continue;
      const entry = allowed.find((a) => a.file === path && a.table === table);
      if (entry) {
        used.add(`${entry.file} ${entry.table}`);
        continue;
      }
      problems.push(
        owner
          ? `src/${path} writes ${table}, a table of ${owner}`
          : `src/${path} writes ${table}, which no folder owns`,
      );
    }
  }
  for (const a of allowed) {
    if (!used.has(`${a.file} ${a.table}`)) problems.push(`${a.file} no longer writes ${a.table}`);
  }
  return problems;
}

/** The rows of each Markdown table under a `## ` heading of the page, as cells. */
function docTables(doc: string, heading: string): string[][][] {
  const start = doc.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `docs/architecture.md has no section '## ${heading}'`);
  const next = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, next < 0 ? undefined : next);
  const tables: string[][][] = [];
  let current: string[][] | undefined;
  for (const line of section.split('\n')) {
    if (!line.startsWith('|')) {
      current = undefined;
      continue;
    }
    const cells = line.slice(1, -1).split('|');
    if (cells.every((c) => /^\s*:?-+:?\s*$/.test(c))) continue;
    if (!current) {
      current = []; // the header row
      tables.push(current);
      continue;
    }
    current.push(cells.map((c) => c.trim()));
  }
  return tables;
}

/** The `code` spans of a cell. */
const codeIn = (cell: string | undefined): string[] =>
  [...(cell ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

describe('the architecture (docs/architecture.md)', () => {
  const files = sourceFiles();
  const doc = readFileSync('docs/architecture.md', 'utf8');

  it('puts every folder and top-level file of src/ in one layer, and only those', () => {
    const units = new Set([...files.keys()].map(unitOf).filter((u) => u !== WEB));
    const members = LAYERS.flatMap((l) => l.members);
    assert.deepEqual(
      members.filter((m, i) => members.indexOf(m) !== i),
      [],
      'in two layers',
    );
    assert.deepEqual(
      [...units].filter((u) => !members.includes(u)),
      [],
      'in no layer',
    );
    assert.deepEqual(
      members.filter((m) => !units.has(m)),
      [],
      'listed but not in src/',
    );
  });

  it("lists the same layers, members and imports in the page's table", () => {
    const [table] = docTables(doc, 'The layers');
    assert.ok(table, 'no table under ## The layers');
    const names = LAYERS.map((l) => l.name);
    assert.deepEqual(
      table.map((row) => ({
        name: row[0]?.replace(/\*/g, ''),
        members: codeIn(row[1]),
        imports: (row[2] ?? '').split(/[^a-z]+/).filter((w) => names.includes(w)),
      })),
      LAYERS,
    );
  });

  it('has each layer import only the layers its row allows (http/ and db/ no resource)', () => {
    assert.deepEqual(layerViolations(files, LAYERS), []);
  });

  it('has no two folders or top-level files import each other', () => {
    assert.deepEqual(importCycles(files), []);
  });

  it("makes the server's stores in app.ts alone (and the admin commands their own)", () => {
    assert.deepEqual(storesMadeElsewhere(files), []);
  });

  it('keeps the web app apart: it imports no server code but what is shared with it', () => {
    assert.deepEqual(webViolations(files, SHARED_WITH_WEB), []);
  });

  it("gives every table of sql/ one owner, as the page's table does", () => {
    const owned = Object.values(TABLE_OWNERS).flat();
    assert.deepEqual([...owned].sort(), [...schemaTables()].sort());
    const [table] = docTables(doc, 'Who writes which table');
    assert.ok(table, 'no table of owners under ## Who writes which table');
    assert.deepEqual(
      Object.fromEntries(table.map((row) => [codeIn(row[0])[0], codeIn(row[1])])),
      TABLE_OWNERS,
    );
  });

  it("writes a table only from its owner's folder or a place the page names", () => {
    assert.deepEqual(foreignWrites(files, TABLE_OWNERS, FOREIGN_WRITES), []);
    const [, table] = docTables(doc, 'Who writes which table');
    assert.ok(table, 'no table of the other writers under ## Who writes which table');
    assert.deepEqual(
      table.map((row) => ({ file: codeIn(row[0])[0], table: codeIn(row[1])[0] })),
      FOREIGN_WRITES.map(({ file, table }) => ({ file, table })),
    );
  });

  describe('the checks themselves', () => {
    const fake = (entries: Record<string, string>): Files => new Map(Object.entries(entries));

    it('see a toolkit folder import a resource, and a file in no layer', () => {
      const problems = layerViolations(
        fake({
          'http/list.ts': "import type { Time } from '../times/json';",
          'times/json.ts': '',
          'new.ts': '',
        }),
        LAYERS,
      );
      assert.deepEqual(problems, [
        'src/http/list.ts (toolkit) imports src/times/json.ts (resources); toolkit imports shapes, base',
        'src/new.ts: new.ts is in no layer (add it to a row of the table)',
      ]);
    });

    it('see folders import each other round three', () => {
      const problems = importCycles(
        fake({
          'a/x.ts': "import { y } from '../b/y';",
          'b/y.ts': "export { z } from '../c/z';",
          'c/z.ts': "const x = require('../a/x');",
        }),
      );
      assert.equal(problems.length, 1);
      assert.match(problems[0] as string, /^a\/, b\/, c\/ import each other: /);
    });

    it("see a store write another folder's table, and SQL built with a table name", () => {
      const problems = foreignWrites(
        fake({
          'times/store.ts':
            'db.prepare(`UPDATE projects SET x = 1`); db.prepare(`DELETE FROM times`);',
          'roles/store.ts':
            // biome-ignore lint/suspicious/noTemplateCurlyInString: a store's source text
            "db.prepare(`INSERT OR IGNORE INTO ${table} VALUES (1)`); 'DO UPDATE SET'",
        }),
        TABLE_OWNERS,
        [],
      );
      assert.deepEqual(problems, [
        'src/times/store.ts writes projects, a table of projects/',
        'src/roles/store.ts writes *, which no folder owns',
      ]);
    });

    it('see a store made outside app.ts', () => {
      const problems = storesMadeElsewhere(
        fake({
          'server.ts': 'const users = createUserStore(db, readers);',
          'users/store.ts': 'export function createUserStore(db: Db) {}',
        }),
      );
      assert.deepEqual(problems, ['src/server.ts makes a store: createUserStore(']);
    });

    it('see the web app import server code', () => {
      const problems = webViolations(
        fake({ 'web/api.ts': "import { isSlug } from '../identifiers';", 'identifiers.ts': '' }),
        [],
      );
      assert.deepEqual(problems, [
        'src/web/api.ts imports src/identifiers.ts, not shared with the web app',
      ]);
    });
  });
});
