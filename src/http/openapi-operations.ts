// What /openapi.json says of each operation beyond its zod schemas, derived from the route's policy so
// that the document cannot drift from what the guard enforces: who may call it (security), the error
// answers it can give (each with the shared Error schema), and on which host it lives.
import { MAX_PATH_PARAM_CHARS } from './framework-errors.js';
import { MAX_JSON_DEPTH } from './input-guard.js';
import type { RoutePolicy } from './route-policy.js';

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 406 | 409 | 412 | 413 | 414 | 415 | 422 | 429 | 500 | 502 | 503 | 504;

declare module 'fastify' {
  interface FastifySchema {
    /**
     * Error answers particular to this route, each with when it happens. The ones every route of its
     * policy can give (401 for a key route, 429 for a rate-limited one…) are added to the document.
     */
    errors?: Partial<Record<ErrorStatus, string>>;
  }
}

/** The error answers of a route that runs a query on a warehouse. */
export const WAREHOUSE_ERRORS = {
  502: 'The warehouse cannot be reached or dropped the connection (`warehouse_unreachable`)',
  504: 'The warehouse did not answer within the time limit (`warehouse_timeout`)',
} as const satisfies Partial<Record<ErrorStatus, string>>;

/** The operation extension that carries error answers from the route transform to the document. */
export const ERROR_RESPONSES_KEY = 'x-error-responses';

const SECURITY_SCHEME: Record<Exclude<RoutePolicy['auth'], 'public'>, string> = {
  'question-key': 'questionKey',
  'workspace-key': 'workspaceKey',
  'structured-key': 'structuredKey',
  agent: 'structuredKey',
  session: 'session',
};

const CREDENTIAL: Record<Exclude<RoutePolicy['auth'], 'public'>, string> = {
  'question-key': 'a question key (`svc_sk_…`)',
  'workspace-key': 'a workspace key (`svc_` + 64 hex)',
  'structured-key': 'a structured key (`svc_api_…`)',
  agent: 'a structured key (`svc_api_…`)',
  session: 'a console session (the `svc_session` cookie)',
};

const BUDGET: Record<NonNullable<RoutePolicy['rateLimit']>, string> = {
  question: '100 requests per key per clock hour (a luminary may raise a key’s budget)',
  session_question: '100 questions per signed-in user per workspace per clock hour',
  workspace: '60 requests per key per minute (a luminary may raise a key’s budget)',
  structured: '1000 requests per workspace per minute',
};

/**
 * C lives on the API host ({api_url} in the contract); everything else on the application host, the
 * document's default server. One service answers both host names, so C's paths work on either.
 */
export const API_HOST_SERVERS = [
  {
    url: '{api_host}',
    description: 'The API host: surface C at /v1',
    variables: { api_host: { default: 'https://127.0.0.1:3000', description: 'Scheme, host and port of the API host (by default, where `svc serve` listens)' } },
  },
  { url: '/', description: 'The application host, which answers /v1 too (one service serves both hosts)' },
];

export interface RouteFacts {
  url: string;
  method: string | string[];
  config?: Partial<RoutePolicy>;
  bodyLimit?: number;
  hasPathParams: boolean;
  declaredErrors: Partial<Record<ErrorStatus, string>>;
  /** The server's body limit, for routes that do not set their own. */
  defaultBodyLimit: number;
}

export interface OperationFacts {
  security: Array<Record<string, string[]>>;
  description: string;
  servers?: typeof API_HOST_SERVERS;
  [ERROR_RESPONSES_KEY]: Partial<Record<ErrorStatus, string>>;
}

export function operationFacts(route: RouteFacts): OperationFacts {
  const policy = route.config ?? {};
  const auth = policy.auth ?? 'public';
  return {
    security: auth === 'public' ? [] : [{ [SECURITY_SCHEME[auth]]: [] }],
    description: describePolicy(policy),
    ...(route.url.startsWith('/v1/') ? { servers: API_HOST_SERVERS } : {}),
    [ERROR_RESPONSES_KEY]: mergeErrors(errorsOfPolicy(route, policy), route.declaredErrors),
  };
}

/** A route's own description of a status replaces the policy's, except 400: its reasons are added. */
function mergeErrors(ofPolicy: Partial<Record<ErrorStatus, string>>, declared: Partial<Record<ErrorStatus, string>>) {
  const merged = { ...ofPolicy, ...declared };
  if (ofPolicy[400] && declared[400]) merged[400] = `${ofPolicy[400]}. ${declared[400]}`;
  return merged;
}

function describePolicy(policy: Partial<RoutePolicy>): string {
  const auth = policy.auth ?? 'public';
  const parts = [auth === 'public' ? 'No credential.' : `Takes ${CREDENTIAL[auth]}.`];
  if (policy.https) parts.push('HTTPS only.');
  if (policy.plan) parts.push('The workspace plan must include API access (Team or Enterprise).');
  if (policy.scope) parts.push(`The key needs the \`${policy.scope}\` scope.`);
  if (policy.role) parts.push(`The user needs the ${policy.role} role or above.`);
  if (policy.rateLimit) parts.push(`Budget: ${BUDGET[policy.rateLimit]}.`);
  return parts.join(' ');
}

function errorsOfPolicy(route: RouteFacts, policy: Partial<RoutePolicy>): Partial<Record<ErrorStatus, string>> {
  const auth = policy.auth ?? 'public';
  const methods = [route.method].flat();
  const takesBody = methods.some((m) => !['GET', 'HEAD'].includes(m));
  const errors: Partial<Record<ErrorStatus, string>> = {
    400:
      'Invalid request: malformed JSON (`malformed_json`), a field that fails validation (`invalid_request`, the message names it), ' +
      `a NUL character (\`nul_character\`) or objects and arrays nested more than ${MAX_JSON_DEPTH} deep (\`nesting_too_deep\`)`,
  };
  if (auth !== 'public') {
    errors[401] =
      auth === 'session'
        ? 'No live console session, or an API key sent instead (`session_required`, `session_expired`)'
        : 'The key is missing, malformed, of another surface, unknown, revoked or expired (`missing_key`, `malformed_key`, `wrong_key_type`, `invalid_key`, `key_revoked`, `key_expired`…)';
  }
  const forbidden = [
    policy.https && 'plain HTTP (`https_required`)',
    policy.plan && 'a plan without API access (`plan_required`)',
    policy.role && `a role below ${policy.role} (\`role_required\`)`,
    policy.scope && `a key without the ${policy.scope} scope (\`scope_required\`)`,
    (auth === 'session' || policy.sameOrigin) && takesBody && 'a write from another origin (`cross_site_refused`)',
  ].filter(Boolean);
  if (forbidden.length > 0) errors[403] = `Refused: ${forbidden.join('; ')}`;
  if (route.hasPathParams) {
    errors[400] += '; a percent-encoding in the path that is not UTF-8 (`malformed_url`)';
    errors[404] = 'No such resource in your workspace';
    errors[414] = `A path parameter longer than ${MAX_PATH_PARAM_CHARS} characters (\`path_parameter_too_long\`)`;
  }
  if (takesBody) {
    errors[413] = `The body is larger than ${formatBytes(route.bodyLimit ?? route.defaultBodyLimit)} (\`body_too_large\`)`;
    errors[415] = 'The body is not `application/json` (`unsupported_media_type`)';
  }
  const keyRoute = auth !== 'public' && auth !== 'session';
  if (keyRoute) errors[400] += '; an API key in the URL instead of the Authorization header (`key_in_url`)';
  if (policy.rateLimit) errors[429] = 'The budget of this window is spent (`rate_limited`); see `Retry-After`';
  if (keyRoute) {
    errors[429] = `${errors[429] ?? 'Too many requests'}; or, before a key is accepted, this client address has spent its budget of answers without a valid key; see \`Retry-After\``;
  }
  errors[500] = 'A fault of ours (`internal`); the body carries only `request_id`';
  if (auth !== 'public') errors[503] = 'A dependency (the metadata store, or Redis when configured) does not answer (`service_unavailable`); see `Retry-After`';
  return errors;
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
