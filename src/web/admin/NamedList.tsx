// Activities and organization roles: both are a name and a slug, listed for everyone and
// managed by site managers and admins (SPEC §3): create, rename or re-slug, delete. A
// refusal (a slug that exists, a role still held, an activity still used) is shown as
// the server words it, at the field it names. Activities are soft deleted: "Deleted too"
// (`?deleted=1`) lists those as well, with Restore (org roles are deleted for good), and
// everyone may open an activity's history (who changed what, and when).
import { useId, useState } from 'preact/hooks';
import { api, errorText, type NamedKind } from '../api';
import { reloadCatalog, useCatalog } from '../base/catalog';
import { Confirm } from '../base/Dialog';
import { Problem, problemProps, useSave } from '../base/field-problems';
import { RestoreDialog } from '../base/RestoreDialog';
import { useResource } from '../base/resource';
import { ScrollBox } from '../base/ScrollBox';
import { slugOf } from '../base/slug';
import { navigate } from '../router';
import type { Named, NamedFields } from '../types';
import { ActivityHistory } from './ActivityHistory';

const FIELDS = ['name', 'slug'];

/** The slug of a live item: only a deleted activity may have none (the old server's). */
const liveSlug = (item: Named): string => item.slug ?? '';

export function NamedList(props: {
  username: string;
  query: URLSearchParams;
  kind: NamedKind;
  title: string;
  one: string;
}) {
  const { catalog } = useCatalog(props.username);
  const store = api.named(props.kind);
  const [failed, setError] = useState<string | undefined>();
  const [status, setStatus] = useState('');
  const [editing, setEditing] = useState<string | undefined>();
  const [deleting, setDeleting] = useState<Named | undefined>();
  const [restoring, setRestoring] = useState<Named | undefined>();
  const [showing, setShowing] = useState<string | undefined>(); // an activity's uuid
  const [version, setVersion] = useState(0);
  const may = !!catalog && (catalog.me.site_admin || catalog.me.site_manager);
  const softDeleted = props.kind === 'activities';
  // Activities have a history to show to everyone; org roles only actions for managers.
  const actions = may || softDeleted;
  const deletedToo = softDeleted && props.query.get('deleted') === '1';
  const path = `/${props.kind}`;

  const loaded = useResource(`${props.kind} ${deletedToo}`, () =>
    store.list(deletedToo ? { include_deleted: 'true' } : {}),
  );
  const items = loaded.data;
  const error = failed ?? loaded.error;
  const changed = (what: string) => {
    setStatus(what);
    setEditing(undefined);
    setVersion((v) => v + 1); // a fresh form for the next new one
    loaded.reload();
    if (props.kind === 'activities') reloadCatalog();
  };
  const remove = async (yes: boolean) => {
    const item = deleting;
    setDeleting(undefined);
    if (!yes || !item) return;
    setError(undefined);
    try {
      await store.remove(liveSlug(item));
      changed(`Deleted ${item.name}`);
    } catch (err) {
      setError(errorText(err));
    }
  };

  const restore = async (slugs: string[]) => {
    const item = restoring as Named;
    const restored = await store.restore(item.uuid as string, slugs[0]);
    setRestoring(undefined);
    changed(`Restored ${restored.name}`);
  };

  return (
    <section class="named">
      <div class="toolbar">
        <h1>{props.title}</h1>
        {softDeleted && (
          <label class="inline">
            <input
              type="checkbox"
              checked={deletedToo}
              onChange={(e) => navigate(e.currentTarget.checked ? `${path}?deleted=1` : path)}
            />
            Deleted too
          </label>
        )}
      </div>
      {catalog && !may && (
        <p class="notice" role="note">
          Site managers and admins manage the {props.title.toLowerCase()}; you can see them.
        </p>
      )}
      {may && (
        <NamedForm
          key={`new-${version}`}
          heading={`New ${props.one}`}
          submit={`Create ${props.one}`}
          onSave={async (item) => {
            await store.create(item);
            changed(`Created ${item.name}`);
          }}
        />
      )}
      <p class="status" role="status">
        {status}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {items && items.length === 0 && (
        <p class="muted empty">
          No {props.title.toLowerCase()} yet
          {may ? `: create the first ${props.one} above.` : '.'}
        </p>
      )}
      {items && items.length > 0 && (
        <ScrollBox label={props.title}>
          <table class="list cards">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Slug</th>
                {actions && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {items.map((item) =>
                editing === item.slug && !item.deleted_at ? (
                  <tr key={item.uuid ?? item.slug}>
                    <td colSpan={3}>
                      <NamedForm
                        heading={`Edit ${item.name}`}
                        submit="Save"
                        item={item}
                        onCancel={() => setEditing(undefined)}
                        onSave={async (next) => {
                          await store.update(liveSlug(item), next);
                          changed(`Saved ${next.name}`);
                        }}
                      />
                    </td>
                  </tr>
                ) : (
                  <tr key={item.uuid ?? item.slug} class={item.deleted_at ? 'deleted' : undefined}>
                    <td>
                      {item.name}
                      {item.deleted_at && <span class="badge">deleted</span>}
                    </td>
                    <td data-label="Slug">{item.slug ?? '—'}</td>
                    {actions && (
                      <td class="row-actions">
                        {!may ? null : item.deleted_at ? (
                          <button
                            type="button"
                            aria-label={`Restore ${item.name}`}
                            onClick={() => setRestoring(item)}
                          >
                            Restore
                          </button>
                        ) : (
                          <>
                            <button
                              type="button"
                              aria-label={`Edit ${item.name}`}
                              onClick={() => setEditing(liveSlug(item))}
                            >
                              Edit
                            </button>
                            <button
                              type="button"
                              aria-label={`Delete ${item.name}`}
                              onClick={() => setDeleting(item)}
                            >
                              Delete
                            </button>
                          </>
                        )}
                        {softDeleted && item.uuid && (
                          <button
                            type="button"
                            aria-label={`History of ${item.name}`}
                            onClick={() => setShowing(item.uuid)}
                          >
                            History
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </ScrollBox>
      )}
      <Confirm
        open={deleting !== undefined}
        label={`Delete the ${props.one}?`}
        text={`${deleting?.name ?? ''} (${deleting?.slug ?? ''}) will be deleted and its slug freed.`}
        yes="Delete"
        no="Keep it"
        onAnswer={remove}
      />
      {softDeleted && <ActivityHistory uuid={showing} onClose={() => setShowing(undefined)} />}
      <RestoreDialog
        what={restoring && `${props.one} ${restoring.name}`}
        field="slug"
        slugs={restoring?.slug ? [restoring.slug] : []}
        onRestore={restore}
        onClose={() => setRestoring(undefined)}
      />
    </section>
  );
}

function NamedForm(props: {
  heading: string;
  submit: string;
  item?: Named;
  onSave: (item: NamedFields) => Promise<void>;
  onCancel?: () => void;
}) {
  const id = useId();
  const [name, setName] = useState(props.item?.name ?? '');
  const [slug, setSlug] = useState(props.item?.slug ?? '');
  const [slugTouched, setSlugTouched] = useState(!!props.item);
  const { problems, busy, save } = useSave(FIELDS);
  const submit = (e: Event) => {
    e.preventDefault();
    save(() => props.onSave({ name: name.trim(), slug: slug.trim() }));
  };
  return (
    <form class="inline-form" onSubmit={submit} noValidate aria-label={props.heading}>
      <div>
        <label for={`${id}-n`}>Name</label>
        <input
          id={`${id}-n`}
          value={name}
          onInput={(e) => {
            const next = e.currentTarget.value;
            setName(next);
            if (!slugTouched) setSlug(slugOf(next, ''));
          }}
          {...problemProps(id, 'name', problems)}
        />
        <Problem id={id} field="name" problems={problems} />
      </div>
      <div>
        <label for={`${id}-s`}>Slug</label>
        <input
          id={`${id}-s`}
          value={slug}
          onInput={(e) => {
            setSlugTouched(true);
            setSlug(e.currentTarget.value);
          }}
          {...problemProps(id, 'slug', problems)}
        />
        <Problem id={id} field="slug" problems={problems} />
      </div>
      <div class="buttons">
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {props.submit}
        </button>
      </div>
      <Problem id={id} field="form" problems={problems} />
    </form>
  );
}
