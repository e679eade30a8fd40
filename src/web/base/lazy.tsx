// A page loaded when first opened (esbuild splits it into its own chunk): the reports
// carry a chart library, the profile bcrypt; the first page does without both.
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export function lazyPage<P extends object>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  // One request for the chunk, whichever instance asked first: every instance shows it
  // when it comes, however their renders and effects interleave with its arrival.
  let loading: Promise<ComponentType<P>> | undefined;
  return function LazyPage(props: P) {
    const [page, setPage] = useState<ComponentType<P> | undefined>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (page) return;
      let live = true;
      loading ??= load();
      loading.then(
        (c) => {
          loaded = c;
          if (live) setPage(() => c);
        },
        () => {
          loading = undefined; // the next instance asks again
          if (live) setFailed(true);
        },
      );
      return () => {
        live = false;
      };
    }, []);
    if (failed) {
      return (
        <p class="error" role="alert">
          This page could not be loaded: reload to try again.
        </p>
      );
    }
    const Page = page;
    return Page ? <Page {...props} /> : <p>Loading…</p>;
  };
}
