// Where better-sqlite3's native addon comes from. From source, better-sqlite3 finds it
// in node_modules itself; the single executable carries it as an asset (issue 6) and
// sets the loader below before opening any database.

// biome-ignore lint/suspicious/noExplicitAny: the addon object is opaque to us.
type Addon = any;
let loader: (() => Addon) | undefined;
let loaded: Addon | undefined;

export function setNativeBindingLoader(load: () => Addon): void {
  loader = load;
}

export function nativeBinding(): Addon | undefined {
  if (!loader) return undefined;
  loaded ??= loader();
  return loaded;
}
