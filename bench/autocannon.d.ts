// autocannon ships no types; the bench uses a small part of it (see load-child.ts).
declare module 'autocannon' {
  const autocannon: (options: Record<string, unknown>, done: () => void) => any;
  export default autocannon;
}
