// A page loaded when first opened (esbuild splits it into its own chunk): the reports
// carry a chart library, the profile bcrypt; the first page does without both.
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export function lazyPage<P extends object>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  return function LazyPage(props: P) {
    const [page, setPage] = useState<ComponentType<P> | undefined>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      // Loaded for another instance between this one's first render and now (the home
      // page's Team week, replaced by /team's while its chunk came): show it.
      if (loaded) {
        setPage(() => loaded);
        return;
      }
      load().then(
        (c) => {
          loaded = c;
          setPage(() => c);
        },
        () => setFailed(true),
      );
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
