/**
 * The OpenAPI 3.1 document of the REST API, written from the route table (http/route-table.ts) and
 * nothing else: each route's path and path parameters, its body and query from the joi schemas it
 * validates with (converted by joi-to-json), who may call it from its guards, what it answers from
 * its answers() declarations (the domain's answer shapes), and the one error answer. A route added
 * anywhere under /api appears here without being named.
 */
import parseJoi from 'joi-to-json';
import type { JsonSchema } from '@platform/domain';
import type { RouteEntry } from '../http/route-table';
import type { RouteAnswer, RouteInput, RoutePolicy, RouteRawBody } from '../http/route-policy';
import { ErrorAnswer } from '../http/errors';
import { pathParamSchema } from '../http/path-id';
import { SESSION_COOKIE } from '../auth/session';

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema>; responses: Record<string, JsonSchema> };
  tags: { name: string }[];
}

export interface Operation {
  operationId: string;
  tags: string[];
  description: string;
  parameters: Parameter[];
  requestBody?: { required: boolean; description?: string; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, JsonSchema>;
  security: Record<string, string[]>[];
}

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/** Express's `/a/:id` as OpenAPI's `/a/{id}`. */
export function openApiPath(pattern: string): string {
  return pattern.replace(/:(\w+)/g, '{$1}');
}

const pathParams = (pattern: string) => [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1]);

/** A joi schema in OpenAPI 3.1's dialect (JSON Schema 2020-12). */
function jsonSchemaOf(input: RouteInput, shared: Record<string, JsonSchema>): JsonSchema {
  return parseJoi(input.schema as never, 'open-api-3.1', shared) as JsonSchema;
}

/** A body read raw: its joi schema when the route checks one (a webhook's JSON event), otherwise bytes. */
function rawBodySchema(body: RouteRawBody, shared: Record<string, JsonSchema>): JsonSchema {
  return body.schema ? jsonSchemaOf({ where: 'body', schema: body.schema }, shared) : { type: 'string', contentMediaType: body.contentType };
}

/** A query schema as one parameter per key (an object schema without keys, as one exploded parameter). */
function queryParameters(input: RouteInput, shared: Record<string, JsonSchema>): Parameter[] {
  const schema = jsonSchemaOf(input, shared);
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return [{ name: 'query', in: 'query', required: false, schema }];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({ name, in: 'query' as const, required: required.has(name), schema: property }));
}

/** Who may call, in words, from the guards the request meets. */
function whoMayCall(policies: RoutePolicy[]): string {
  const guards = policies.filter((p) => p.type !== 'public');
  if (!guards.length) {
    const open = policies.find((p) => p.type === 'public');
    return `Open to anyone: ${open?.type === 'public' ? open.because : 'no guard declared'}.`;
  }
  return guards
    .map((p) => {
      if (p.type === 'user') return `Signed in as ${p.kinds.length ? p.kinds.join(' or ') : 'any'} user.`;
      const portal = p.portal ? ` with ${p.portal === 'clinic' ? 'Clinical' : 'Research'} Portal access` : '';
      const roles = p.roles ? `, as ${p.roles.join(' or ')}` : '';
      return `A member of the path's account${portal}${roles} (another account's id answers 404).`;
    })
    .join(' ');
}

function security(route: RouteEntry): Record<string, string[]>[] {
  const signedIn = route.policies.some((p) => p.type !== 'public');
  const csrf = route.checks.includes('csrf') && BODY_METHODS.has(route.method);
  const needs = { ...(signedIn ? { session: [] } : {}), ...(csrf ? { csrf: [] } : {}) };
  return Object.keys(needs).length ? [needs] : [];
}

function successResponse(answer: RouteAnswer): JsonSchema {
  const headers = Object.fromEntries(
    (answer.headers ?? []).map((h) => [h, { schema: h === 'x-total-count' ? { type: 'integer', minimum: 0 } : { type: 'string' }, ...(h === 'x-total-count' ? { description: 'How many rows the whole list has' } : {}) }]),
  );
  const content = answer.contentType
    ? { [answer.contentType]: { schema: answer.schema ?? (answer.contentType === 'application/json' ? {} : { type: 'string', contentMediaType: answer.contentType }) } }
    : undefined;
  return {
    description: answer.paged ? 'One page of the list' : answer.status === 204 ? 'Done' : answer.status >= 300 && answer.status < 400 ? 'Redirect' : 'Success',
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(content ? { content } : {}),
  };
}

/** The error answers this route can give, by what it declares; `default` covers the rest (409, 429, 500, 503…). */
function errorResponses(route: RouteEntry): Record<string, JsonSchema> {
  const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
  const guards = route.policies.filter((p) => p.type !== 'public');
  const out: Record<string, JsonSchema> = {};
  if (route.inputs.length || BODY_METHODS.has(route.method)) out['400'] = ref('BadRequest');
  if (guards.length) out['401'] = ref('Unauthorized');
  if (guards.some((p) => p.type === 'account' || (p.type === 'user' && p.kinds.length)) || security(route).some((s) => 'csrf' in s)) out['403'] = ref('Forbidden');
  if (pathParams(route.pattern).length) out['404'] = ref('NotFound');
  if (BODY_METHODS.has(route.method)) out['413'] = ref('TooLarge');
  out.default = ref('Error');
  return out;
}

function operation(route: RouteEntry, shared: Record<string, JsonSchema>): Operation {
  const parameters: Parameter[] = pathParams(route.pattern).map((name) => ({ name, in: 'path', required: true, schema: pathParamSchema(name, route.textParams) }));
  for (const input of route.inputs.filter((i) => i.where === 'query')) parameters.push(...queryParameters(input, shared));
  const body = route.inputs.find((i) => i.where === 'body');
  const requestBody = body
    ? { required: true, content: { 'application/json': { schema: jsonSchemaOf(body, shared) } } }
    : route.rawBody
      ? { required: true, description: route.rawBody.description, content: { [route.rawBody.contentType]: { schema: rawBodySchema(route.rawBody, shared) } } }
      : undefined;
  const responses: Record<string, JsonSchema> = {};
  for (const answer of route.answers) responses[String(answer.status)] = successResponse(answer);
  return {
    operationId: `${route.method}${route.pattern.replace(/^\/api/, '').replace(/[^A-Za-z0-9]+(\w)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    tags: [tagOf(route.pattern)],
    description: whoMayCall(route.policies),
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses: { ...responses, ...errorResponses(route) },
    security: security(route),
  };
}

/** The area a route belongs to: the first segment after /api (provider-clinic, lab-toolbox, admin…). */
const tagOf = (pattern: string) => pattern.split('/')[2] || 'api';

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ERROR_REF } } });

export function openApiDocument(routes: RouteEntry[], info: { title: string; version: string }): OpenApiDocument {
  const shared: Record<string, JsonSchema> = {};
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const path = openApiPath(route.pattern);
    paths[path] ??= {};
    paths[path][route.method] = operation(route, shared);
  }
  return {
    openapi: '3.1.0',
    info: {
      ...info,
      description:
        'The REST API the web app uses. Sign in with POST /api/auth/login; the session is a cookie. ' +
        'Every state-changing request carries the x-csrf-token header, read from GET /api/auth/csrf (again after signing in). ' +
        'Lists answer one page as an array, the whole list\'s size in the x-total-count header. ' +
        'Every error answers { error: { code, message, fields? }, requestId }.',
    },
    tags: [...new Set(routes.map((r) => tagOf(r.pattern)))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { ...shared, Error: ErrorAnswer.schema },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The session cookie set by POST /api/auth/login.' },
        csrf: { type: 'apiKey', in: 'header', name: 'x-csrf-token', description: 'The token GET /api/auth/csrf answers (a new one after signing in).' },
      },
      responses: {
        BadRequest: errorResponse('The request is not valid: error.fields names each field that is wrong'),
        Unauthorized: errorResponse('Not signed in'),
        Forbidden: errorResponse('Signed in, but not allowed (or the CSRF token is missing)'),
        NotFound: errorResponse('No such thing, or not one the caller may see'),
        TooLarge: errorResponse('The request body is too large'),
        Error: errorResponse('Any other error, in the one error shape'),
      },
    },
  };
}
