// The component schemas of GET /v0/openapi.json: the objects the API answers (SPEC §4),
// the objects POST accepts, the error body (SPEC §7) and the extensions of SPEC §11. Each
// is declared once in src/shapes/, which also gives the TypeScript types the server's
// json.ts files and the web app use; here they are only listed. The test helpers validate
// every reply the HTTP suite receives against them, so they cannot drift.
import {
  Activity,
  ActivityCreate,
  ActivityHistoryRevision,
  ActivityRestore,
  ActivityRevision,
  ActivityUpdate,
} from '../shapes/activity';
import {
  Decision,
  IsoWeek,
  Lock,
  LockUpdate,
  WeekPart,
  WeekPartDecision,
  WeekSubmit,
} from '../shapes/approval';
import { LoginRequest, Token, TokenAuth } from '../shapes/auth';
import { CalendarDate, NullableDate, Slug, Username, Uuid } from '../shapes/common';
import { ERROR_KINDS, ErrorBody } from '../shapes/error';
import { ImportReport } from '../shapes/import';
import { KeptRow, KeptRows, KeptRowsUpdate } from '../shapes/kept-rows';
import type { Component, Schema } from '../shapes/kit';
import { Health, Info } from '../shapes/meta';
import { OrgRole, OrgRoleCreate, OrgRoleUpdate } from '../shapes/org-role';
import { NewPersonalToken, PersonalToken, PersonalTokenCreate } from '../shapes/personal-token';
import {
  Project,
  ProjectCreate,
  ProjectHistoryRevision,
  ProjectRestore,
  ProjectRevision,
  ProjectRole,
  ProjectUpdate,
} from '../shapes/project';
import { GroupBy, Report, ReportRow } from '../shapes/report';
import { Time, TimeCreate, TimeHistoryRevision, TimeRevision, TimeUpdate } from '../shapes/time';
import { Timer, TimerStart, TimerStop } from '../shapes/timer';
import { User, UserCreate, UserUpdate } from '../shapes/user';

/** Every component, once: a `$ref` to one not listed here would dangle. */
export const COMPONENTS: readonly Component<Schema<unknown>>[] = [
  // the pieces
  Slug,
  Username,
  Uuid,
  CalendarDate,
  NullableDate,
  // what the API answers
  Project,
  ProjectRevision,
  ProjectRole,
  Activity,
  ActivityRevision,
  Time,
  TimeRevision,
  ProjectHistoryRevision,
  ActivityHistoryRevision,
  TimeHistoryRevision,
  User,
  OrgRole,
  Token,
  Health,
  // what POST accepts
  ProjectCreate,
  ProjectUpdate,
  ActivityCreate,
  ActivityUpdate,
  ProjectRestore,
  ActivityRestore,
  TimeCreate,
  TimeUpdate,
  UserCreate,
  UserUpdate,
  OrgRoleCreate,
  OrgRoleUpdate,
  TokenAuth,
  LoginRequest,
  // the error body
  ErrorBody,
  // the extensions of SPEC §11
  GroupBy,
  Report,
  ReportRow,
  Timer,
  TimerStart,
  TimerStop,
  Info,
  PersonalToken,
  NewPersonalToken,
  PersonalTokenCreate,
  IsoWeek,
  WeekPart,
  WeekPartDecision,
  WeekSubmit,
  Decision,
  Lock,
  LockUpdate,
  ImportReport,
  KeptRow,
  KeptRows,
  KeptRowsUpdate,
];

export const schemas: Record<string, unknown> = Object.fromEntries(
  COMPONENTS.map((c) => [c.name, c.schema]),
);

/** The error body of one HTTP status: only the kinds that answer with it. */
export function errorOfStatus(status: number) {
  const names = [...new Set(ERROR_KINDS.filter((k) => k[2] === status).map((k) => k[1]))];
  return {
    type: 'object',
    allOf: [ErrorBody.ref],
    properties: { status: { const: status }, error: { enum: names } },
  };
}
