// Activities and organization roles: both are a name and a slug, listed for everyone and
// managed by site managers and admins (SPEC §3): create, rename or re-slug, delete. A
// refusal (a slug that exists, a role still held, an activity still used) is shown as
// the server words it, at the field it names.
import { useEffect, useId, useState } from 'preact/hooks';
import { api, errorText, type NamedKind } from '../api';
import { reloadCatalog, useCatalog } from '../base/catalog';
import { Confirm } from '../base/Dialog';
import { Problem, type Problems, problemProps, problemsOf } from '../base/field-problems';
import { ScrollBox } from '../base/ScrollBox';
import { slugOf } from '../base/slug';
import type { Named } from '../types';

const FIELDS = ['name', 'slug'];

export function NamedList(props: {
  username: string;
  kind: NamedKind;
  title: string;
  one: string;
}) {
  const { catalog } = useCatalog(props.username);
  const store = api.named(props.kind);
  const [items, setItems] = useState<Named[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [status, setStatus] = useState('');
  const [editing, setEditing] = useState<string | undefined>();
  const [deleting, setDeleting] = useState<Named | undefined>();
  const [version, setVersion] = useState(0);
  const may = !!catalog && (catalog.me.site_admin || catalog.me.site_manager);

  useEffect(() => {
    store.list().then(setItems, (err) => setError(errorText(err)));
  }, [props.kind, version]);
  const changed = (what: string) => {
    setStatus(what);
    setEditing(undefined);
    setVersion((v) => v + 1);
    if (props.kind === 'activities') reloadCatalog();
  };
  const remove = async (yes: boolean) => {
    const item = deleting;
    setDeleting(undefined);
    if (!yes || !item) return;
    setError(undefined);
    try {
      await store.remove(item.slug);
      changed(`Deleted ${item.name}`);
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section class="named">
      <h1>{props.title}</h1>
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
      {items && (
        <ScrollBox label={props.title}>
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Slug</th>
                {may && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {items.map((item) =>
                editing === item.slug ? (
                  <tr key={item.slug}>
                    <td colSpan={3}>
                      <NamedForm
                        heading={`Edit ${item.name}`}
                        submit="Save"
                        item={item}
                        onCancel={() => setEditing(undefined)}
                        onSave={async (next) => {
                          await store.update(item.slug, next);
                          changed(`Saved ${next.name}`);
                        }}
                      />
                    </td>
                  </tr>
                ) : (
                  <tr key={item.slug}>
                    <td>{item.name}</td>
                    <td>{item.slug}</td>
                    {may && (
                      <td class="row-actions">
                        <button
                          type="button"
                          aria-label={`Edit ${item.name}`}
                          onClick={() => setEditing(item.slug)}
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
    </section>
  );
}

function NamedForm(props: {
  heading: string;
  submit: string;
  item?: Named;
  onSave: (item: Named) => Promise<void>;
  onCancel?: () => void;
}) {
  const id = useId();
  const [name, setName] = useState(props.item?.name ?? '');
  const [slug, setSlug] = useState(props.item?.slug ?? '');
  const [slugTouched, setSlugTouched] = useState(!!props.item);
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setProblems({});
    try {
      await props.onSave({ name: name.trim(), slug: slug.trim() });
    } catch (err) {
      setProblems(problemsOf(errorText(err), FIELDS));
      setBusy(false);
    }
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
