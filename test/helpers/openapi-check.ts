// Holds every reply the HTTP tests receive to GET /v0/openapi.json (src/openapi/): the
// (method, path, status) must be documented, the Content-Type one the document gives, the
// required headers present and a JSON body valid against the response's schema (ajv,
// JSON Schema 2020-12). api.ts calls checkReply for every request it sends, so the
// document cannot drift from the server without a test failing.
import { appendFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../src/openapi/document';

const DOC_ID = 'https://timetrack.invalid/openapi.json';

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats(ajv);
// The document's own members are not JSON Schema keywords: only its schemas are compiled.
ajv.addVocabulary(['openapi', 'info', 'servers', 'tags', 'paths', 'components']);
ajv.addSchema({ $id: DOC_ID, ...openApiDocument });

type Json = Record<string, any>;
const doc = openApiDocument as Json;

interface Template {
  path: string;
  segments: string[];
  /** Literal segments: a literal beats a parameter, as in the router. */
  score: number;
}

const templates: Template[] = Object.keys(doc.paths).map((path) => {
  const segments = path.split('/').slice(1);
  return { path, segments, score: segments.filter((s) => !s.startsWith('{')).length };
});

/** The documented path the router would route `pathname` to (a trailing slash is ignored). */
export function matchTemplate(pathname: string): string | undefined {
  const parts = pathname.split('/').slice(1);
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  let best: Template | undefined;
  for (const t of templates) {
    if (t.segments.length !== parts.length) continue;
    const fits = t.segments.every((seg, i) =>
      seg.startsWith('{') ? parts[i] !== '' : seg === parts[i],
    );
    if (fits && (!best || t.score > best.score)) best = t;
  }
  return best?.path;
}

const pointer = (...parts: string[]) =>
  parts.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

const validators = new Map<string, ValidateFunction>();
function validatorAt(path: string): ValidateFunction {
  let validate = validators.get(path);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOC_ID}#${path}` });
    validators.set(path, validate);
  }
  return validate;
}

/** The documented response and the JSON pointer it lives at (following a component $ref). */
function documentedResponse(
  template: string,
  method: string,
  status: number,
): { at: string; response: Json } | undefined {
  const response = doc.paths[template]?.[method]?.responses?.[String(status)] as Json | undefined;
  if (!response) return undefined;
  const target = response.$ref as string | undefined;
  if (!target)
    return { at: pointer('paths', template, method, 'responses', String(status)), response };
  const name = target.split('/').pop() as string;
  return { at: pointer('components', 'responses', name), response: doc.components.responses[name] };
}

export const stats = { checked: 0, bodies: 0 };
if (process.env.TIMETRACK_OPENAPI_STATS) {
  const file = process.env.TIMETRACK_OPENAPI_STATS;
  process.once('exit', () => appendFileSync(file, `${stats.checked} ${stats.bodies}\n`));
}

export interface CheckedReply {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * Throws when the reply to `method url` is not what the document says. Paths outside
 * `/v0` and `/health` (the web app) and OPTIONS (the CORS preflight, on any path) are
 * not the API's and are let through.
 */
export function checkReply(method: string, url: string, reply: CheckedReply): void {
  const { pathname } = new URL(url);
  const upper = method.toUpperCase();
  if (upper === 'OPTIONS') return;
  if (!(pathname === '/health' || pathname === '/v0' || pathname.startsWith('/v0/'))) return;
  const template = matchTemplate(pathname);
  // HEAD is GET without a body (the document leaves it implicit).
  const verb = upper === 'HEAD' ? 'get' : upper.toLowerCase();
  const where = `${upper} ${pathname} (${template ?? 'no documented path'}) → ${reply.status}`;
  const fail = (why: string): never => {
    throw new Error(
      `OpenAPI document mismatch: ${where}: ${why}; body ${reply.text.slice(0, 400)}`,
    );
  };

  let found: { at: string; response: Json } | undefined;
  if (!template) {
    // Any path not listed: 404 Nonexistent endpoint (the document's description).
    if (reply.status !== 404) fail('an undocumented path must answer 404');
    found = {
      at: pointer('components', 'responses', 'NotFound'),
      response: doc.components.responses.NotFound,
    };
  } else if (!doc.paths[template][verb]) {
    // Any other method on a listed path: 405 with Allow.
    if (reply.status !== 405) fail(`the path documents no ${upper}, so it must answer 405`);
    found = {
      at: pointer('components', 'responses', 'MethodNotAllowed'),
      response: doc.components.responses.MethodNotAllowed,
    };
  } else {
    found = documentedResponse(template, verb, reply.status);
    if (!found) fail(`status ${reply.status} is not documented for ${verb.toUpperCase()}`);
  }
  const { at, response } = found as { at: string; response: Json };
  stats.checked++;

  for (const [name, header] of Object.entries((response.headers ?? {}) as Json)) {
    if (header.required && !reply.headers.has(name)) fail(`required header ${name} is missing`);
  }
  const content = (response.content ?? {}) as Json;
  if (reply.text === '') {
    if (upper === 'HEAD') return;
    if (Object.keys(content).length > 0) fail('the body is empty but the document gives one');
    return;
  }
  const mediaType = (reply.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  if (!content[mediaType]) {
    fail(
      `Content-Type ${mediaType || '(none)'} is not one of ${Object.keys(content).join(', ') || '(no body)'}`,
    );
  }
  if (mediaType !== 'application/json') return;
  let body: unknown;
  try {
    body = JSON.parse(reply.text);
  } catch {
    fail('the body is not JSON');
  }
  const validate = validatorAt(`${at}${pointer('content', mediaType, 'schema')}`);
  stats.bodies++;
  if (!validate(body)) {
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`)
      .join('; ');
    fail(`the body does not match ${at}: ${errors}`);
  }
}
