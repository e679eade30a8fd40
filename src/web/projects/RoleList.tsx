// One role of a project's users map (members, spectators or managers): the people who
// have it, each removable, and a picker that suggests usernames as you type (a native
// <datalist>: the browser filters it, keyboard and screen readers included).
import { useId, useState } from 'preact/hooks';
import type { User } from '../types';

export function RoleList(props: {
  label: string;
  /** One person of the list: `member`. */
  one: string;
  people: string[];
  users: User[];
  onChange: (people: string[]) => void;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const add = () => {
    const wanted = name.trim();
    if (!wanted) return;
    const user = props.users.find((u) => u.username.toLowerCase() === wanted.toLowerCase());
    if (!user) {
      setProblem(`No user ${wanted}`);
      return;
    }
    setProblem(undefined);
    setName('');
    if (!props.people.some((p) => p.toLowerCase() === user.username.toLowerCase())) {
      props.onChange([...props.people, user.username]);
    }
  };
  return (
    <fieldset class="role-list">
      <legend>{props.label}</legend>
      <ul>
        {props.people.length === 0 && <li class="muted">nobody</li>}
        {props.people.map((p) => (
          <li key={p}>
            {p}{' '}
            <button
              type="button"
              class="small"
              aria-label={`Remove ${p} from ${props.label.toLowerCase()}`}
              onClick={() => props.onChange(props.people.filter((x) => x !== p))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <div class="picker">
        <label for={`${id}-u`} class="visually-hidden">
          Add to {props.label.toLowerCase()}
        </label>
        <input
          id={`${id}-u`}
          list={`${id}-list`}
          placeholder="username"
          autoComplete="off"
          value={name}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-p` : undefined}
          onInput={(e) => setName(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <datalist id={`${id}-list`}>
          {props.users.map((u) => (
            <option key={u.username} value={u.username}>
              {u.display_name ?? u.username}
            </option>
          ))}
        </datalist>
        <button type="button" onClick={add} aria-label={`Add ${props.one}`}>
          Add
        </button>
      </div>
      {problem && (
        <p id={`${id}-p`} class="field-error" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
