// A project's revisions, newest first, with who made each and when
// (GET /v0/projects/:uuid/history). `version` changes after every save: read it again.
import { api, type ProjectRevision } from '../api';
import { Revisions } from '../base/Revisions';
import { projectChanges } from './changes';

export function ProjectHistory(props: { uuid: string; version: number }) {
  return (
    <section class="card wide-card" aria-labelledby="project-history">
      <h2 id="project-history">History</h2>
      <Revisions<ProjectRevision>
        load={() => api.projectHistory(props.uuid)}
        version={`${props.uuid} ${props.version}`}
        caption="Revisions of this project, newest first"
        changes={projectChanges}
        columns={[
          { label: 'Name', cell: (r) => r.name },
          { label: 'Slugs', cell: (r) => r.slugs.join(', ') },
          { label: 'Default activity', cell: (r) => r.default_activity ?? '—' },
          { label: 'URI', cell: (r) => r.uri ?? '', class: 'uri' },
        ]}
      />
    </section>
  );
}
