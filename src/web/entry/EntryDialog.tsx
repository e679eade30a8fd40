// The dialog a time entry opens in: its form, or its history. Shared by the timesheet
// and the entries page (the pages never reach into each other's folders).
import type { Time } from '../api';
import type { Catalog } from '../base/catalog';
import { Dialog } from '../base/Dialog';
import { EntryForm } from './EntryForm';
import { History } from './History';

export type EntryView = { kind: 'edit'; time: Time } | { kind: 'history'; time: Time };

export function EntryDialog(props: {
  view: EntryView | undefined;
  catalog: Catalog | undefined;
  onClose: (saved?: Time) => void;
}) {
  const { view, catalog } = props;
  const label = view?.kind === 'history' ? 'Entry history' : 'Edit entry';
  return (
    <Dialog
      open={view !== undefined && catalog !== undefined}
      label={label}
      panel={view?.kind === 'history' ? 'wide' : true}
      onCancel={() => props.onClose()}
    >
      {view && catalog && (
        <>
          <h2>{label}</h2>
          {view.kind === 'edit' ? (
            <EntryForm
              time={view.time}
              catalog={catalog}
              onSaved={(t) => props.onClose(t)}
              onCancel={() => props.onClose()}
            />
          ) : (
            <History uuid={view.time.uuid} catalog={catalog} onClose={() => props.onClose()} />
          )}
        </>
      )}
    </Dialog>
  );
}
