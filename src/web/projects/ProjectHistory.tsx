// A project's revisions, newest first, with who made each and when (include_revisions).

import { ScrollBox } from '../base/ScrollBox';
import type { Project } from '../types';

export function ProjectHistory(props: { project: Project }) {
  const p = props.project;
  const revisions = [p, ...(p.parents ?? [])];
  return (
    <section class="card wide-card" aria-labelledby="project-history">
      <h2 id="project-history">History</h2>
      <ScrollBox label="Revisions">
        <table class="list">
          <thead>
            <tr>
              <th scope="col">Revision</th>
              <th scope="col">Changed on</th>
              <th scope="col">By</th>
              <th scope="col">Name</th>
              <th scope="col">Slugs</th>
              <th scope="col">Default activity</th>
              <th scope="col">URI</th>
            </tr>
          </thead>
          <tbody>
            {revisions.map((r) => (
              <tr key={r.revision}>
                <th scope="row">{r.revision}</th>
                <td class="nowrap">{r.updated_at ?? r.created_at}</td>
                <td>{r.changed_by ?? 'not recorded'}</td>
                <td>{r.name}</td>
                <td>{r.slugs.join(', ')}</td>
                <td>{r.default_activity ?? '—'}</td>
                <td class="notes">{r.uri ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
    </section>
  );
}
