// The paths of GET /v0/openapi.json: every route of src/routes.ts with its parameters,
// request body and every status it answers (test/api/openapi/openapi.test.ts checks the route table
// against this list; the test helpers check every reply against it).
import {
  bodyAuth,
  deleted,
  errors,
  JSON_TYPE,
  list,
  ok,
  param,
  queryAuth,
  schema,
  withCsv,
  writeBody,
} from './responses';

// --- operations --------------------------------------------------------------------------

interface Resource {
  tag: string;
  /** The object's component schema. */
  name: string;
  /** The path parameter (a component parameter) of one object. */
  id: string;
  /** The list's query parameters beyond skip/limit/token. */
  filters: string[];
  /** The one object's query parameters beyond token. */
  oneParams: string[];
  /** Whether DELETE may be refused while the object is used (405). */
  deleteInUse: boolean;
}

/** GET/POST on the collection, GET/POST/DELETE on one object. */
function resource(r: Resource, plural: string) {
  const listResponses = list(r.name);
  return {
    collection: {
      get: {
        tags: [r.tag],
        summary: `List ${plural}`,
        security: queryAuth,
        parameters: [...r.filters, 'skip', 'limit', 'token'].map(param),
        responses: {
          ...(r.name === 'Time' ? withCsv(listResponses) : listResponses),
          // 503: every stream slot stayed busy (--max-streamed-lists).
          ...errors(400, 401, 500, 503),
        },
      },
      post: {
        tags: [r.tag],
        summary: `Create ${r.name === 'OrgRole' ? 'an org role' : `a ${r.tag.slice(0, -1)}`}`,
        security: bodyAuth,
        requestBody: writeBody(`${r.name}Create`),
        responses: {
          ...ok('The new object, as GET shows it', schema(r.name)),
          ...errors(400, 401, 409, 413, 500, 503),
        },
      },
    },
    one: {
      parameters: [param(r.id)],
      get: {
        tags: [r.tag],
        summary: 'Get one',
        security: queryAuth,
        parameters: [...r.oneParams, 'token'].map(param),
        responses: { ...ok('The object', schema(r.name)), ...errors(400, 401, 404, 500) },
      },
      post: {
        tags: [r.tag],
        summary: 'Update the fields sent',
        security: bodyAuth,
        requestBody: writeBody(`${r.name}Update`),
        responses: {
          ...ok('The updated object, as GET shows it', schema(r.name)),
          ...errors(400, 401, 404, 409, 413, 500, 503),
        },
      },
      delete: {
        tags: [r.tag],
        summary: 'Delete',
        security: queryAuth,
        parameters: [param('token')],
        responses: {
          ...deleted,
          // 409: a time entry in a locked period (kind 14, issue 32).
          ...errors(
            400,
            401,
            404,
            ...(r.deleteInUse ? [405] : []),
            ...(r.name === 'Time' ? [409] : []),
            500,
            503,
          ),
        },
      },
    },
  };
}

/** POST /v0/<things>/{uuid}/restore: a deleted project or activity made live (issue 17). */
function restore(r: Pick<Resource, 'tag' | 'name'>, noun: string, slugs: string) {
  return {
    parameters: [param('uuid')],
    post: {
      tags: [r.tag],
      summary: `Restore a deleted ${noun} as a new revision, with ${slugs}; a live one is answered as it is`,
      security: bodyAuth,
      requestBody: writeBody(`${r.name}Restore`, false),
      responses: {
        ...ok('The restored object, as GET shows it', schema(r.name)),
        ...errors(400, 401, 404, 409, 413, 500, 503),
      },
    },
  };
}

/** GET /v0/<things>/{uuid}/history: every revision with who made it and when (issue 29). */
function history(r: Pick<Resource, 'tag' | 'name'>, visibleTo: string) {
  return {
    parameters: [param('uuid')],
    get: {
      tags: [r.tag],
      summary: `Every revision, newest first (the current one first): each as GET answered it then, with who made it (changed_by) and when (changed_at). Visible to ${visibleTo}; a deleted one only with include_deleted`,
      security: queryAuth,
      parameters: ['include_deleted', 'token'].map(param),
      responses: {
        ...ok('The revisions, newest first', {
          type: 'array',
          items: schema(`${r.name}HistoryRevision`),
          minItems: 1,
        }),
        ...errors(400, 401, 404, 500),
      },
    },
  };
}

const roles = resource(
  {
    tag: 'org-roles',
    name: 'OrgRole',
    id: 'slug',
    filters: [],
    oneParams: [],
    deleteInUse: true,
  },
  'org roles, by slug',
);
const users = resource(
  {
    tag: 'users',
    name: 'User',
    id: 'username',
    filters: ['role', 'include_deleted'],
    oneParams: ['include_deleted'],
    deleteInUse: false,
  },
  'users',
);
const projects = resource(
  {
    tag: 'projects',
    name: 'Project',
    id: 'slug',
    filters: ['projectUser', 'include_deleted', 'include_revisions'],
    oneParams: ['include_deleted', 'include_revisions'],
    deleteInUse: true,
  },
  'projects',
);
const activities = resource(
  {
    tag: 'activities',
    name: 'Activity',
    id: 'slug',
    filters: ['include_deleted', 'include_revisions'],
    oneParams: ['include_deleted', 'include_revisions'],
    deleteInUse: true,
  },
  'activities',
);
const times = resource(
  {
    tag: 'times',
    name: 'Time',
    id: 'uuid',
    filters: [
      'user',
      'project',
      'activity',
      'start',
      'end',
      'notes_contains',
      'order',
      'include_deleted',
      'include_revisions',
      'status',
      'format',
    ],
    oneParams: ['include_deleted', 'include_revisions'],
    deleteInUse: false,
  },
  'time entries visible to the caller',
);

export const paths = {
  '/health': {
    get: {
      tags: ['meta'],
      summary: 'Liveness (outside /v0, no token)',
      responses: { ...ok('Serving', schema('Health')) },
    },
  },
  '/metrics': {
    get: {
      tags: ['meta'],
      summary:
        'Prometheus metrics (outside /v0, no token; only with --metrics, and on --metrics-addr instead when that is set)',
      responses: {
        '200': {
          description: 'Prometheus text exposition format 0.0.4',
          content: { 'text/plain': { schema: { type: 'string' } } },
        },
      },
    },
  },
  '/v0/openapi.json': {
    get: {
      tags: ['meta'],
      summary: 'This document (no token)',
      responses: {
        ...ok('OpenAPI 3.1', {
          type: 'object',
          properties: { openapi: { const: '3.1.0' }, paths: { type: 'object' } },
          required: ['openapi', 'paths'],
        }),
      },
    },
  },
  '/v0/login': {
    post: {
      tags: ['auth'],
      summary: 'Exchange credentials for a token',
      requestBody: {
        required: true,
        content: { [JSON_TYPE]: { schema: schema('LoginRequest') } },
      },
      responses: {
        ...ok('A token', schema('Token')),
        ...errors(400, 401, 413, 500, 503),
      },
    },
  },
  '/v0/oidc/start': {
    get: {
      tags: ['auth'],
      summary:
        'Begin an OpenID Connect sign-in (docs/sso.md): the browser is sent to the provider, with a cookie binding the sign-in to it',
      responses: {
        '302': {
          description:
            "To the provider's authorization endpoint (or to the web app's /sso?error=unavailable)",
          headers: {
            Location: { required: true, schema: { type: 'string' } },
            'Set-Cookie': { schema: { type: 'string' } },
          },
        },
        ...errors(404, 500),
      },
    },
  },
  '/v0/oidc/callback': {
    get: {
      tags: ['auth'],
      summary:
        "The provider's redirect back: checks its answer and sends the browser to the web app's /sso, with a one-time code for POST /v0/login in the fragment, or ?error=",
      responses: {
        '302': {
          description: 'To /sso#code=… (signed in) or /sso?error=…[&user=…]',
          headers: { Location: { required: true, schema: { type: 'string' } } },
        },
        ...errors(404, 500),
      },
    },
  },
  '/v0/login/renew': {
    post: {
      tags: ['auth'],
      summary:
        'Extension: exchange a valid token (sent in any form) for a fresh one, living --session-idle seconds, never past --session-max after the sign-in it descends from; refused for a revoked, expired or deactivated user’s token',
      security: bodyAuth,
      requestBody: {
        required: false,
        description: 'Empty (a Bearer header alone) or the `auth` block; anything else is ignored',
        content: {
          [JSON_TYPE]: {
            schema: { type: 'object', properties: { auth: schema('TokenAuth') } },
          },
        },
      },
      responses: {
        ...ok('A fresh token', schema('Token')),
        ...errors(400, 401, 413, 500, 503),
      },
    },
  },
  '/v0/logout': {
    post: {
      tags: ['auth'],
      summary:
        'End the token sent (in any form): it is refused from then on, in every process; the other tokens of the user stay valid',
      security: bodyAuth,
      requestBody: {
        required: false,
        description: 'Empty (a Bearer header alone) or the `auth` block; anything else is ignored',
        content: {
          [JSON_TYPE]: {
            schema: { type: 'object', properties: { auth: schema('TokenAuth') } },
          },
        },
      },
      responses: {
        '204': { description: 'Signed out: no body' },
        ...errors(400, 401, 413, 500, 503),
      },
    },
  },
  '/v0/users/org-roles': roles.collection,
  '/v0/users/org-roles/{slug}': roles.one,
  '/v0/users': users.collection,
  '/v0/users/{username}': users.one,
  '/v0/projects': projects.collection,
  '/v0/projects/{slug}': projects.one,
  '/v0/projects/{uuid}/restore': restore(
    { tag: 'projects', name: 'Project' },
    'project',
    'the slugs sent or, left out, those it had',
  ),
  '/v0/projects/{uuid}/history': history({ tag: 'projects', name: 'Project' }, 'anyone'),
  '/v0/activities': activities.collection,
  '/v0/activities/{slug}': activities.one,
  '/v0/activities/{uuid}/restore': restore(
    { tag: 'activities', name: 'Activity' },
    'activity',
    'the slug sent or, left out, the one it had',
  ),
  '/v0/activities/{uuid}/history': history({ tag: 'activities', name: 'Activity' }, 'anyone'),
  '/v0/times': times.collection,
  '/v0/times/{uuid}': times.one,
  '/v0/times/{uuid}/history': history(
    { tag: 'times', name: 'Time' },
    'those who may GET the entry (SPEC §3)',
  ),
};
