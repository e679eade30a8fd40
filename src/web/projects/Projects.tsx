// The projects page: every project the caller can see (all of them, SPEC §3), with its
// slugs, default activity and the caller's role; a link to each project's page, and
// "New project" for those who may create one (site managers, admins). "Deleted too"
// (`?deleted=1`) lists deleted projects as well, with Restore for those who may manage
// them.
import { useState } from 'preact/hooks';
import { api, type Project } from '../api';
import { activityName, type Catalog, reloadCatalog, useCatalog } from '../base/catalog';
import { RestoreDialog } from '../base/RestoreDialog';
import { useResource } from '../base/resource';
import { ScrollBox } from '../base/ScrollBox';
import { navigate, onLinkClick } from '../router';
import type { User } from '../types';
import { mayCreateProject, mayEditProject, rolesOf } from './rules';

export function Projects(props: { username: string; query: URLSearchParams }) {
  const { catalog } = useCatalog(props.username);
  const deletedToo = props.query.get('deleted') === '1';
  const [status, setStatus] = useState('');
  const [restoring, setRestoring] = useState<Project | undefined>();
  const {
    data: projects,
    error,
    reload,
  } = useResource(deletedToo ? 'with-deleted' : 'live', () =>
    api.projects(deletedToo ? { include_deleted: 'true' } : {}),
  );
  const restore = async (slugs: string[]) => {
    const project = restoring as Project;
    const restored = await api.restoreProject(project.uuid, slugs);
    setRestoring(undefined);
    setStatus(`Restored ${restored.name}`);
    reload();
    reloadCatalog();
  };
  return (
    <section class="projects">
      <div class="toolbar">
        <h1>Projects</h1>
        <div class="toolbar-end">
          <label class="inline">
            <input
              type="checkbox"
              checked={deletedToo}
              onChange={(e) =>
                navigate(e.currentTarget.checked ? '/projects?deleted=1' : '/projects')
              }
            />
            Deleted too
          </label>
          {catalog && mayCreateProject(catalog.me) && (
            <a class="button primary" href="/projects/new" onClick={onLinkClick}>
              New project
            </a>
          )}
        </div>
      </div>
      <p class="status" role="status">
        {status}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!projects && !error && <p>Loading…</p>}
      {projects && projects.length === 0 && <p class="muted">No projects yet.</p>}
      {projects && projects.length > 0 && (
        <ScrollBox label="Projects">
          <table class="list cards">
            <thead>
              <tr>
                <th scope="col">Project</th>
                <th scope="col">Slugs</th>
                <th scope="col">Default activity</th>
                <th scope="col">People</th>
                <th scope="col">Your role</th>
              </tr>
            </thead>
            <tbody>
              {[...projects]
                .sort((a, b) => a.name.localeCompare(b.name))
                .map((p) => (
                  <ProjectRow
                    key={p.uuid}
                    project={p}
                    catalog={catalog}
                    me={catalog?.me}
                    username={props.username}
                    onRestore={() => setRestoring(p)}
                  />
                ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      <RestoreDialog
        what={restoring && `project ${restoring.name}`}
        field="slugs"
        slugs={restoring?.slugs ?? []}
        onRestore={restore}
        onClose={() => setRestoring(undefined)}
      />
    </section>
  );
}

function ProjectRow(props: {
  project: Project;
  catalog: Catalog | undefined;
  me: User | undefined;
  username: string;
  onRestore: () => void;
}) {
  const p = props.project;
  const roles = rolesOf(p, props.username);
  const deleted = p.deleted_at !== null;
  return (
    <tr class={deleted ? 'deleted' : undefined}>
      <td>
        {deleted ? (
          p.name
        ) : (
          <a href={`/projects/${p.slugs[0]}`} onClick={onLinkClick}>
            {p.name}
          </a>
        )}
        {deleted && <span class="badge">deleted</span>}
        {deleted && props.me && mayEditProject(props.me, p) && (
          <button
            type="button"
            class="inline-action"
            aria-label={`Restore ${p.name}`}
            onClick={props.onRestore}
          >
            Restore
          </button>
        )}
      </td>
      <td data-label="Slugs">{p.slugs.join(', ')}</td>
      <td data-label="Default activity">
        {p.default_activity && props.catalog
          ? activityName(props.catalog.activities, p.default_activity)
          : (p.default_activity ?? '—')}
      </td>
      <td class="num" data-label="People">
        {Object.keys(p.users).length}
      </td>
      <td data-label="Your role">{roles.length ? roles.join(', ') : '—'}</td>
    </tr>
  );
}
