// One project's page (/projects/<slug>, or /projects/new): its form for those who may
// change it (its managers, site managers, admins — SPEC §3), a plain view with a clear
// "not allowed" for everyone else, delete, and the history with who changed what.
// (A deleted project cannot be restored: deleting releases its slugs, SPEC §5.)
import { useState } from 'preact/hooks';
import { api, errorText } from '../api';
import { reloadCatalog, useCatalog } from '../base/catalog';
import { Confirm } from '../base/Dialog';
import { useResource } from '../base/resource';
import { navigate, onLinkClick } from '../router';
import { ProjectForm } from './ProjectForm';
import { ProjectHistory } from './ProjectHistory';
import { mayCreateProject, mayEditProject } from './rules';

export function ProjectPage(props: { username: string; slug: string }) {
  const { catalog } = useCatalog(props.username);
  const creating = props.slug === 'new';
  const loaded = useResource(creating ? undefined : props.slug, () => api.project(props.slug));
  const project = loaded.data;
  const [failed, setError] = useState<string | undefined>();
  const error = failed ?? loaded.error;
  const [deleting, setDeleting] = useState(false);
  // "Created …" said on the new project's page, which this page becomes.
  const [created, setCreated] = useState('');

  const back = (
    <p>
      <a href="/projects" onClick={onLinkClick}>
        ‹ All projects
      </a>
    </p>
  );
  if (error) {
    return (
      <section>
        {back}
        <p class="error" role="alert">
          {error}
        </p>
      </section>
    );
  }
  if (!catalog || (!creating && !project)) return <p>Loading…</p>;
  const me = catalog.me;
  const allowed = creating ? mayCreateProject(me) : project && mayEditProject(me, project);

  const remove = async (yes: boolean) => {
    setDeleting(false);
    if (!yes || !project) return;
    try {
      await api.deleteProject(project.slugs[0] as string);
      reloadCatalog();
      navigate('/projects');
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section class="project">
      {back}
      <h1>{creating ? 'New project' : project?.name}</h1>
      <p class="status" role="status">
        {creating ? '' : created}
      </p>
      {!allowed && (
        <p class="notice" role="note">
          {creating
            ? 'You are not allowed to create projects: site managers and admins can.'
            : 'You are not allowed to change this project: its managers, site managers and admins can.'}
        </p>
      )}
      {allowed && (
        <ProjectForm
          key={project?.uuid ?? 'new'}
          project={project}
          catalog={catalog}
          onSaved={(saved) => {
            reloadCatalog();
            if (creating) {
              setCreated(`Created ${saved.name}`);
              navigate(`/projects/${saved.slugs[0]}`);
            } else if (saved.slugs[0] !== props.slug)
              navigate(`/projects/${saved.slugs[0]}`, { replace: true });
            else loaded.reload();
          }}
        />
      )}
      {!allowed && project && (
        <dl class="card facts">
          <dt>Slugs</dt>
          <dd>{project.slugs.join(', ')}</dd>
          <dt>Default activity</dt>
          <dd>{project.default_activity ?? '—'}</dd>
          <dt>URI</dt>
          <dd>{project.uri ?? '—'}</dd>
          <dt>People</dt>
          <dd>{Object.keys(project.users).join(', ') || '—'}</dd>
        </dl>
      )}
      {project && allowed && (
        <div class="actions start">
          <button type="button" class="danger" onClick={() => setDeleting(true)}>
            Delete project
          </button>
        </div>
      )}
      {project && <ProjectHistory uuid={project.uuid} version={project.revision} />}
      <Confirm
        open={deleting}
        label="Delete the project?"
        text={`${project?.name ?? ''} will be deleted and its slugs freed. Time entries still using it prevent this.`}
        yes="Delete project"
        no="Keep it"
        onAnswer={remove}
      />
    </section>
  );
}
