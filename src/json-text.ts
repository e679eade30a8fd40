// A response body that is already JSON text: SQLite builds the JSON of time entries
// itself (json_object), which is what keeps a month of one user's entries cheap to list.
// Writers of responses send its text as it is, and serialise anything else.

export class JsonText {
  constructor(readonly text: string) {}
}

export function toJsonText(body: unknown): string {
  return body instanceof JsonText ? body.text : JSON.stringify(body);
}
