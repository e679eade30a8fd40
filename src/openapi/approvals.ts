// The paths of weekly submission, approval and the lock date (issue 32,
// docs/approvals.md); their objects' schemas are in src/shapes/approval.ts. Every reply of
// test/api/approvals/ is checked against them.
import { bodyAuth, errors, list, ok, param, queryAuth, schema, writeBody } from './responses';

const part = ['partUser', 'week', 'slug'].map(param);

/** approve, reject or reopen one week part. */
const decision = (summary: string, required: boolean) => ({
  parameters: part,
  post: {
    tags: ['approvals'],
    summary,
    security: bodyAuth,
    requestBody: writeBody('Decision', required),
    responses: {
      ...ok('The week part', schema('WeekPart')),
      ...errors(400, 401, 404, 413, 500, 503),
    },
  },
});

export const approvalPaths = {
  '/v0/weeks/{username}/{week}/submit': {
    parameters: [param('partUser'), param('week')],
    post: {
      tags: ['approvals'],
      summary:
        'Submit a week (the person, or an admin): every open or rejected part with entries becomes submitted',
      security: bodyAuth,
      requestBody: writeBody('WeekSubmit', false),
      responses: {
        ...ok('Every part of the week', { type: 'array', items: schema('WeekPart') }),
        ...errors(400, 401, 404, 413, 500, 503),
      },
    },
  },
  '/v0/approvals': {
    get: {
      tags: ['approvals'],
      summary:
        'Week parts of the entries GET /v0/times would list (same visibility); start and end widen to whole weeks',
      security: queryAuth,
      parameters: ['user', 'project', 'start', 'end', 'partStatus', 'skip', 'limit', 'token'].map(
        param,
      ),
      responses: { ...list('WeekPart'), ...errors(400, 401, 500, 503) },
    },
  },
  '/v0/approvals/{username}/{week}/{slug}/approve': decision(
    "Approve a submitted part (the project's managers, site managers, admins; not one's own)",
    false,
  ),
  '/v0/approvals/{username}/{week}/{slug}/reject': decision(
    'Reject a submitted part with a comment (who may approve it)',
    true,
  ),
  '/v0/approvals/{username}/{week}/{slug}/reopen': decision(
    'Reopen an approved part (who may approve it)',
    false,
  ),
  '/v0/approvals/{username}/{week}/{slug}/history': {
    parameters: part,
    get: {
      tags: ['approvals'],
      summary: 'Every submission and decision of a part, newest first (who may see its entries)',
      security: queryAuth,
      parameters: [param('token')],
      responses: {
        ...ok('The decisions', { type: 'array', items: schema('WeekPartDecision') }),
        ...errors(400, 401, 404, 500),
      },
    },
  },
  '/v0/lock': {
    get: {
      tags: ['approvals'],
      summary: 'The lock date',
      security: queryAuth,
      parameters: [param('token')],
      responses: { ...ok('The lock date', schema('Lock')), ...errors(401, 500) },
    },
    put: {
      tags: ['approvals'],
      summary:
        'Set the lock date (admins): no entry dated before it may be created, changed, deleted or restored',
      security: bodyAuth,
      requestBody: writeBody('LockUpdate'),
      responses: {
        ...ok('The lock date', schema('Lock')),
        ...errors(400, 401, 413, 500, 503),
      },
    },
  },
};
