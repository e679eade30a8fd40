// The people page: every user (deleted ones too for admins), searched as you type by
// username, display name or email; each links to their page. Site managers and admins
// may add people (SPEC §3); everyone may look.
import { useId, useState } from 'preact/hooks';
import { api, type User } from '../api';
import { useCatalog } from '../base/catalog';
import { useResource } from '../base/resource';
import { ScrollBox } from '../base/ScrollBox';
import { onLinkClick } from '../router';

const flags = (u: User) =>
  [
    u.site_admin && 'admin',
    u.site_manager && 'site manager',
    u.site_spectator && 'site spectator',
    !u.active && !u.deleted_at && 'inactive',
    u.deleted_at && 'deleted',
  ].filter(Boolean) as string[];

export function Users(props: { username: string }) {
  const id = useId();
  const { catalog } = useCatalog(props.username);
  const [search, setSearch] = useState('');
  const admin = catalog?.me.site_admin ?? false;
  const { data: users, error } = useResource(catalog && (admin ? 'with-deleted' : 'live'), () =>
    api.users(admin ? { include_deleted: 'true' } : {}),
  );
  const wanted = search.trim().toLowerCase();
  const shown = (users ?? []).filter(
    (u) =>
      !wanted ||
      [u.username, u.display_name ?? '', u.email ?? ''].some((f) =>
        f.toLowerCase().includes(wanted),
      ),
  );
  return (
    <section class="users">
      <div class="toolbar">
        <h1>People</h1>
        {catalog && (catalog.me.site_admin || catalog.me.site_manager) && (
          <a class="button primary" href="/people/new" onClick={onLinkClick}>
            New user
          </a>
        )}
      </div>
      <div class="search">
        <label for={`${id}-q`}>Search</label>
        <input
          id={`${id}-q`}
          type="search"
          placeholder="username, name or email"
          value={search}
          onInput={(e) => setSearch(e.currentTarget.value)}
        />
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!users && !error && <p>Loading…</p>}
      {users && shown.length === 0 && (
        <p class="muted empty">{wanted ? `Nobody matches “${search.trim()}”.` : 'Nobody yet.'}</p>
      )}
      {users && shown.length > 0 && (
        <ScrollBox label="People">
          <table class="list cards">
            <caption class="visually-hidden">People</caption>
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Roles</th>
                <th scope="col">Flags</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((u) => (
                <tr key={u.username} class={u.deleted_at ? 'deleted' : undefined}>
                  <td>
                    <a href={`/people/${encodeURIComponent(u.username)}`} onClick={onLinkClick}>
                      {u.username}
                    </a>
                  </td>
                  <td data-label="Name">{u.display_name ?? ''}</td>
                  <td data-label="Email">{u.email ?? ''}</td>
                  <td data-label="Roles">{u['org-roles'].join(', ')}</td>
                  <td data-label="Flags">{flags(u).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
    </section>
  );
}
