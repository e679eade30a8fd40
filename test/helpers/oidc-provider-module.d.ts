// oidc-provider ships no types (its @types package is for older majors): the test helper
// that runs it (oidc-provider.ts) uses it untyped.
declare module 'oidc-provider';
