// The projects page: every project the caller can see (all of them, SPEC §3), with its
// slugs, default activity and the caller's role; a link to each project's page, and
// "New project" for those who may create one (site managers, admins).
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, type Project } from '../api';
import { activityName, type Catalog, useCatalog } from '../base/catalog';
import { ScrollBox } from '../base/ScrollBox';
import { onLinkClick } from '../router';
import { mayCreateProject, rolesOf } from './rules';

export function Projects(props: { username: string }) {
  const { catalog } = useCatalog(props.username);
  const [projects, setProjects] = useState<Project[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    api.projects().then(setProjects, (err) => setError(errorText(err)));
  }, []);
  return (
    <section class="projects">
      <div class="toolbar">
        <h1>Projects</h1>
        {catalog && mayCreateProject(catalog.me) && (
          <a class="button primary" href="/projects/new" onClick={onLinkClick}>
            New project
          </a>
        )}
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!projects && !error && <p>Loading…</p>}
      {projects && projects.length === 0 && <p class="muted">No projects yet.</p>}
      {projects && projects.length > 0 && (
        <ScrollBox label="Projects">
          <table class="list">
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
                  <ProjectRow key={p.uuid} project={p} catalog={catalog} me={props.username} />
                ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
    </section>
  );
}

function ProjectRow(props: { project: Project; catalog: Catalog | undefined; me: string }) {
  const p = props.project;
  const roles = rolesOf(p, props.me);
  return (
    <tr>
      <td>
        <a href={`/projects/${p.slugs[0]}`} onClick={onLinkClick}>
          {p.name}
        </a>
      </td>
      <td>{p.slugs.join(', ')}</td>
      <td>
        {p.default_activity && props.catalog
          ? activityName(props.catalog.activities, p.default_activity)
          : (p.default_activity ?? '—')}
      </td>
      <td class="num">{Object.keys(p.users).length}</td>
      <td>{roles.length ? roles.join(', ') : '—'}</td>
    </tr>
  );
}
