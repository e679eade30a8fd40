// GET /v0/info (issue 15, part 4): what a client needs to know before logging in —
// which login types to offer — with no token. Nothing secret: the name and version of
// the software, the instance's name (the tokens' `iss`, public in every token; TimeSync's
// `timesync` by default, so it is not what people read), its display name and the
// enabled auth modules (with `oidc`, the sign-in button's text). Built once: none of it
// changes while the process runs.
import type { Config } from '../config';
import { packageVersion } from '../embedded';
import type { Handler } from '../http/context';
import { sendJson } from '../http/respond';
import type { Info } from '../shapes/meta';

/** The shape is src/shapes/meta.ts. */
export type InfoJson = Info;

type InfoConfig = Pick<Config, 'instanceName' | 'displayName' | 'authModules'> & {
  oidc: Pick<Config['oidc'], 'label'>;
};

export function infoOf(config: InfoConfig): InfoJson {
  return {
    name: 'timetrack',
    version: packageVersion(),
    instance_name: config.instanceName,
    display_name: config.displayName,
    auth_modules: [...config.authModules],
    oidc_label: config.authModules.includes('oidc') ? config.oidc.label : null,
    api: 'v0',
  };
}

export function infoRoutes(config: InfoConfig) {
  const info = infoOf(config);
  return { get: ((ctx) => sendJson(ctx.res, 200, info)) satisfies Handler };
}
