// SQL of organization roles (hard-deleted, SPEC §4.5).

import { readList } from '../db/list-reader';
import type { Db } from '../db/open';
import type { ReaderPool } from '../db/readers';
import { type RoleRow, roleText } from './json';

const ROLE_LIST = {
  countSql: 'SELECT count(*) FROM org_roles',
  pageSql: 'SELECT id, slug, name FROM org_roles ORDER BY slug LIMIT ? OFFSET ?',
  params: [],
};

export type RoleStore = ReturnType<typeof createRoleStore>;

export function createRoleStore(db: Db, readers: ReaderPool) {
  const bySlug = db.prepare('SELECT id, slug, name FROM org_roles WHERE slug = ?');
  const byName = db.prepare('SELECT id, slug, name FROM org_roles WHERE name = ?');
  const insert = db.prepare('INSERT INTO org_roles (slug, name) VALUES (?, ?)');
  const update = db.prepare('UPDATE org_roles SET slug = ?, name = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM org_roles WHERE id = ?');
  const held = db.prepare('SELECT EXISTS (SELECT 1 FROM user_org_roles WHERE role_id = ?)').pluck();
  return {
    findBySlug: (slug: string) => bySlug.get(slug) as RoleRow | undefined,
    findByName: (name: string) => byName.get(name) as RoleRow | undefined,
    /** Every role, ordered by slug, in a snapshot of its own. */
    openList: () => readList(readers, ROLE_LIST, roleText),
    insert: (slug: string, name: string) => Number(insert.run(slug, name).lastInsertRowid),
    update: (id: number, slug: string, name: string) => update.run(slug, name, id),
    remove: (id: number) => remove.run(id),
    /** Held by any user, deleted users included. */
    isHeld: (id: number) => held.get(id) === 1,
  };
}
