// Which URIs the web app makes links of. The API takes only http(s) URIs, but data from
// before (an import, a migration, an older version) may hold any text: a `javascript:`
// href would run in the app's origin when clicked (only the CSP stood in the way), so
// such a value is shown as text instead. Pure: no DOM.

/** Whether a stored URI may be a link's href: an http: or https: URL, nothing else. */
export function isWebUri(uri: string): boolean {
  try {
    const { protocol } = new URL(uri);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
