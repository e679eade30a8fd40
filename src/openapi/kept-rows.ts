// The paths of kept timesheet rows (issue 34, docs/api-kept-rows.md); their objects'
// schemas are in src/shapes/kept-rows.ts.
import { bodyAuth, errors, ok, param, queryAuth, schema, writeBody } from './responses';

export const keptRowPaths = {
  '/v0/weeks/{username}/{week}/rows': {
    parameters: [param('partUser'), param('week')],
    get: {
      tags: ['timesheet'],
      summary:
        "The rows a person added to a week of the timesheet and has not filled yet (one's own; admins anyone's)",
      security: queryAuth,
      parameters: [param('token')],
      responses: {
        ...ok('The kept rows', schema('KeptRows')),
        ...errors(400, 401, 404, 500),
      },
    },
    put: {
      tags: ['timesheet'],
      summary:
        'Replace the kept rows of a week (rows with an entry that week and duplicates are left out)',
      security: bodyAuth,
      requestBody: writeBody('KeptRowsUpdate'),
      responses: {
        ...ok('The kept rows', schema('KeptRows')),
        ...errors(400, 401, 404, 409, 413, 500, 503),
      },
    },
  },
};
