// What the server says about itself: GET /health and GET /v0/info (SPEC §11).
import {
  array,
  component,
  constant,
  type Infer,
  nullable,
  oneOfValues,
  shown,
  string,
} from './kit';

export const Health = component('Health', shown({ status: constant('ok') }));
export type Health = Infer<typeof Health>;

export const Info = component(
  'Info',
  shown({
    name: constant('timetrack'),
    version: string(),
    instance_name: string(),
    display_name: string(),
    auth_modules: array(oneOfValues(['password', 'ldap', 'oidc']), { minItems: 1 }),
    oidc_label: nullable(string(), {
      description: "The single sign-on button's text; null unless `oidc` is in auth_modules",
    }),
    api: constant('v0'),
  }),
);
export type Info = Infer<typeof Info>;
