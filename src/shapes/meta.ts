// What the server says about itself: GET /health and GET /v0/info (SPEC §11).
import { array, component, constant, type Infer, oneOfValues, shown, string } from './kit';

export const Health = component('Health', shown({ status: constant('ok') }));
export type Health = Infer<typeof Health>;

export const Info = component(
  'Info',
  shown({
    name: constant('timetrack'),
    version: string(),
    instance_name: string(),
    display_name: string(),
    auth_modules: array(oneOfValues(['password', 'ldap']), { minItems: 1 }),
    api: constant('v0'),
  }),
);
export type Info = Infer<typeof Info>;
