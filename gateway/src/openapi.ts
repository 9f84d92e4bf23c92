import type { ServiceName } from '@parley/contracts';
import { ErrorBody, SESSION_COOKIE } from '@parley/contracts';
import type { Logger } from 'pino';
import {
  DEFAULT_BODY_LIMIT,
  GATEWAY_ROUTES,
  gatewayRouteAccess,
  type HttpMethod,
  methodsOf,
  type RouteEntry,
} from './routes.ts';

/**
 * The one API description of the platform (GET /api/openapi.json): every path of the gateway
 * route table, with its access as an OpenAPI security requirement, and the request and
 * response schemas each owning service publishes at its own /openapi.json (@fastify/swagger
 * from the TypeBox schemas that validate it).
 *
 * - Paths come from the route table, never from the services: a service path the gateway does
 *   not route is not in the description, and a table path always is.
 * - A service that is not deployed or does not answer in time: its paths are still described
 *   from the table, with generic schemas and `x-parley-unavailable: true`
 *   (docs/adr/0020-one-openapi-description-from-the-route-table.md).
 * - Fastify's `:id` becomes OpenAPI's `{id}`, with the gateway's parameter names.
 */

type Json = Record<string, unknown>;
export interface OpenApiDocument extends Json {
  openapi: string;
  paths: Record<string, Record<string, Json>>;
  components?: { schemas?: Record<string, unknown> } & Json;
}

/** `/api/blog/:slug` → `/api/blog/{slug}`. */
export const toOpenApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');
/** `/api/blog/{slug}` → `/api/blog/:slug`. */
export const toFastifyPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');
/** A path with its parameter names erased, for matching a table path to a service's. */
const shapeOf = (openApiPath: string) => openApiPath.replace(/\{\w+\}/g, '{}');
const paramNames = (openApiPath: string) =>
  [...openApiPath.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);

/** The JSON error body of every gateway and service refusal (contracts http.ts, kit errors.ts). */
export const ERROR_SCHEMA: Json = (() => {
  const { $id: _id, ...schema } = JSON.parse(JSON.stringify(ErrorBody)) as Json;
  return schema;
})();

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const SECURITY_SCHEMES = {
  adminSession: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      'The session cookie set by POST /api/admin/login (`__Host-parley_session` over https). ' +
      'A state change (POST, PUT, PATCH, DELETE) must also send a JSON body or the ' +
      '`X-Requested-With: parley` header, and no foreign Origin (CSRF). The role names in a ' +
      'requirement (`super_admin`) are the roles it needs; none = any admin.',
  },
  twilioSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Twilio-Signature',
    description: "Twilio's HMAC of the callback URL and parameters, verified by the voice service.",
  },
  snsSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'x-amz-sns-message-type',
    description:
      'An Amazon SNS notification: the message carries its own signature (Signature, ' +
      'SigningCertURL), verified by the email service against the SNS certificate.',
  },
} as const;

function securityOf(access: RouteEntry['access'], path: string): Json[] {
  switch (access) {
    case 'public':
      return [];
    case 'admin':
      return [{ adminSession: [] }];
    case 'super_admin':
      return [{ adminSession: ['super_admin'] }];
    case 'signed-webhook':
      return [path.includes('/twilio/') ? { twilioSignature: [] } : { snsSignature: [] }];
  }
}

/** Rewrites every local `#/components/<kind>/<name>` reference of a service's schema. */
function prefixRefs(value: unknown, prefix: string): unknown {
  if (Array.isArray(value)) return value.map((v) => prefixRefs(v, prefix));
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
      out[k] = `#/components/schemas/${prefix}${v.slice('#/components/schemas/'.length)}`;
    } else out[k] = prefixRefs(v, prefix);
  }
  return out;
}

const componentPrefix = (service: string) => `${service}.`;

/** The operations of a service's document, keyed by method and parameter-blind path. */
function indexOperations(doc: OpenApiDocument | undefined) {
  const index = new Map<string, { path: string; op: Json }>();
  for (const [path, item] of Object.entries(doc?.paths ?? {})) {
    for (const [method, op] of Object.entries(item ?? {})) {
      if (typeof op === 'object' && op) index.set(`${method.toUpperCase()} ${shapeOf(path)}`, { path, op });
    }
  }
  return index;
}

/** Gives the service's path parameters the gateway's names, position by position. */
function renameParameters(op: Json, servicePath: string, tablePath: string): Json {
  const from = paramNames(servicePath);
  const to = paramNames(tablePath);
  const params = Array.isArray(op.parameters) ? (op.parameters as Json[]) : [];
  const present = new Set(params.filter((p) => p.in === 'path').map((p) => p.name));
  const renamed = params.map((p) => {
    if (p.in !== 'path') return p;
    const i = from.indexOf(p.name as string);
    return i >= 0 && to[i] ? { ...p, name: to[i] } : p;
  });
  // A parameter the service does not describe (an upstreamPath without it) is still a string.
  for (const [i, name] of to.entries()) {
    if (!present.has(from[i] ?? name)) renamed.push(pathParameter(name));
  }
  return { ...op, parameters: renamed };
}

const pathParameter = (name: string): Json => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string', minLength: 1 },
});

const HAS_BODY: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH']);

/** What the gateway itself may answer on a table route, before or instead of the service. */
function gatewayResponses(entry: RouteEntry, method: HttpMethod): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (entry.access === 'admin' || entry.access === 'super_admin') {
    out['401'] = errorResponse('Not signed in (no or unknown session)');
    out['403'] = errorResponse(
      entry.access === 'super_admin'
        ? 'Not a super_admin, a password change is pending, or a cross-site request'
        : 'A password change is pending, or a cross-site request',
    );
    if (HAS_BODY.has(method) || method === 'DELETE')
      out['415'] = errorResponse('A state change without a JSON body or X-Requested-With: parley');
  }
  if (HAS_BODY.has(method)) {
    const limit = entry.bodyLimit ?? DEFAULT_BODY_LIMIT;
    out['413'] = errorResponse(`The body is over ${limit} bytes`);
  }
  if (entry.rateLimit) {
    out['429'] = errorResponse(
      `Over ${entry.rateLimit.max} requests per ${entry.rateLimit.windowSeconds} s from one address`,
    );
  }
  out['502'] = errorResponse('The service gave an invalid answer');
  out['503'] = errorResponse('The service is not deployed or not available right now');
  out['504'] = errorResponse('The service did not answer in time');
  return out;
}

function unavailableOperation(tablePath: string, method: HttpMethod, service: string): Json {
  const op: Json = {
    description:
      `The ${service} service did not describe this operation (not deployed, not answering, ` +
      'or it has no schema for it): its schemas are generic here.',
    'x-parley-unavailable': true,
    parameters: paramNames(tablePath).map(pathParameter),
    responses: {
      '200': { description: 'The service answer', content: { 'application/json': { schema: {} } } },
    },
  };
  if (HAS_BODY.has(method)) {
    op.requestBody = { content: { 'application/json': { schema: { type: 'object' } } } };
  }
  return op;
}

/** A service's liveness (its /health/live, which it hides from its own description). */
const HEALTH_OPERATION: Json = {
  summary: "The service's liveness",
  responses: {
    '200': {
      description: 'The service is up',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['status', 'service'],
            properties: { status: { type: 'string', enum: ['ok'] }, service: { type: 'string' } },
          },
        },
      },
    },
  },
};

const operationId = (method: string, path: string) =>
  `${method.toLowerCase()}${path
    .replace(/^\/api/, '')
    .replace(/[{}]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((s) => s[0]?.toUpperCase() + s.slice(1))
    .join('')}`;

export interface MergeInput {
  routes: readonly RouteEntry[];
  /** Each service's own document; undefined = not deployed or not answering. */
  services: Partial<Record<ServiceName, OpenApiDocument | undefined>>;
  docsPublic: boolean;
  version?: string;
}

/** The merged description (pure: same inputs, same document). */
export function mergeOpenApi(input: MergeInput): OpenApiDocument {
  const paths: Record<string, Record<string, Json>> = {};
  const schemas: Record<string, unknown> = { Error: ERROR_SCHEMA };
  const indexes = new Map<ServiceName, ReturnType<typeof indexOperations>>();
  const unavailable = new Set<ServiceName>();

  for (const [service, doc] of Object.entries(input.services) as Array<[ServiceName, OpenApiDocument]>) {
    if (!doc) continue;
    indexes.set(service, indexOperations(doc));
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      schemas[`${componentPrefix(service)}${name}`] = prefixRefs(schema, componentPrefix(service));
    }
  }

  for (const entry of input.routes) {
    const tablePath = toOpenApiPath(entry.path);
    const servicePath = toOpenApiPath(entry.upstreamPath ?? entry.path);
    for (const method of methodsOf(entry)) {
      const found = indexes.get(entry.service)?.get(`${method} ${shapeOf(servicePath)}`);
      const health = entry.upstreamPath === '/health/live';
      if (!found && !health) unavailable.add(entry.service);
      const base = health
        ? structuredClone(HEALTH_OPERATION)
        : found
          ? renameParameters(
              prefixRefs(found.op, componentPrefix(entry.service)) as Json,
              found.path,
              entry.upstreamPath ? servicePath : tablePath,
            )
          : unavailableOperation(tablePath, method, entry.service);
      if (entry.upstreamPath && found) base.parameters = paramNames(tablePath).map(pathParameter);
      const { responses: own, ...rest } = base;
      const responses: Json = {
        ...gatewayResponses(entry, method),
        ...((own as Json | undefined) ?? {}),
        default: errorResponse('Any other refusal or failure, in the one error shape'),
      };
      if (Array.isArray(rest.parameters) && rest.parameters.length === 0) delete rest.parameters;
      const op: Json = {
        ...rest,
        operationId: operationId(method, tablePath),
        tags: [entry.service],
        security: securityOf(entry.access, entry.path),
        'x-parley-access': entry.access,
        'x-parley-service': entry.service,
        ...(entry.rateLimit ? { 'x-parley-rate-limit': entry.rateLimit } : {}),
        responses,
      };
      paths[tablePath] ??= {};
      (paths[tablePath] as Record<string, Json>)[method.toLowerCase()] = op;
    }
  }

  const ownAccess = gatewayRouteAccess(input.docsPublic);
  for (const route of GATEWAY_ROUTES) {
    const ok =
      route.contentType === 'application/json'
        ? { description: route.summary, content: { 'application/json': { schema: { type: 'object' } } } }
        : { description: route.summary, content: { 'text/html': { schema: { type: 'string' } } } };
    paths[toOpenApiPath(route.path)] = {
      get: {
        summary: route.summary,
        operationId: operationId('GET', route.path),
        tags: ['gateway'],
        security: ownAccess === 'public' ? [] : [{ adminSession: [] }],
        'x-parley-access': ownAccess,
        'x-parley-service': 'gateway',
        responses: {
          '200': ok,
          ...(route.contentType === 'text/html'
            ? { '301': { description: 'To the same page with a trailing slash' } }
            : {}),
          ...(ownAccess === 'public'
            ? {}
            : {
                '401': errorResponse('Not signed in'),
                '403': errorResponse('A password change is pending'),
              }),
          default: errorResponse('Any other refusal or failure, in the one error shape'),
        },
      },
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Parley API',
      version: input.version ?? '1',
      description:
        "Every route of the gateway, generated from its route table and the services' own " +
        'descriptions. Errors always answer `{ error, message }` (plus `details` for invalid ' +
        'input). Operations marked `x-parley-unavailable` belong to a service that did not ' +
        `describe itself when this document was built${unavailable.size ? ` (${[...unavailable].sort().join(', ')})` : ''}.`,
    },
    servers: [{ url: '/' }],
    tags: [...new Set(input.routes.map((r) => r.service)), 'gateway'].map((name) => ({ name })),
    paths,
    components: { schemas, securitySchemes: SECURITY_SCHEMES },
  };
}

interface CachedDoc {
  doc: OpenApiDocument | undefined;
  until: number;
}

/**
 * Each deployed service's own /openapi.json, fetched when the merged document is asked for:
 * kept 60 s when it answered, retried after 5 s when it did not (a service that is down costs
 * at most one timeout per 5 s, and its paths are described from the table meanwhile).
 */
export class ServiceDocuments {
  private readonly cache = new Map<ServiceName, CachedDoc>();
  private readonly inFlight = new Map<ServiceName, Promise<OpenApiDocument | undefined>>();

  constructor(
    private readonly upstreams: Partial<Record<ServiceName, string>>,
    private readonly logger: Logger,
    private readonly timeoutMs = 5000,
    private readonly ttlMs = 60_000,
    private readonly retryMs = 5000,
  ) {}

  async all(): Promise<Partial<Record<ServiceName, OpenApiDocument | undefined>>> {
    const services = Object.keys(this.upstreams) as ServiceName[];
    const docs = await Promise.all(services.map((s) => this.get(s)));
    return Object.fromEntries(services.map((s, i) => [s, docs[i]]));
  }

  private get(service: ServiceName): Promise<OpenApiDocument | undefined> {
    const cached = this.cache.get(service);
    if (cached && cached.until > Date.now()) return Promise.resolve(cached.doc);
    let pending = this.inFlight.get(service);
    if (!pending) {
      pending = this.fetch(service).finally(() => this.inFlight.delete(service));
      this.inFlight.set(service, pending);
    }
    return pending;
  }

  private async fetch(service: ServiceName): Promise<OpenApiDocument | undefined> {
    let doc: OpenApiDocument | undefined;
    try {
      const res = await fetch(`${this.upstreams[service]}/openapi.json`, {
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = (await res.json()) as OpenApiDocument;
      if (!body || typeof body !== 'object' || typeof body.paths !== 'object') throw new Error('no paths');
      doc = body;
    } catch (err) {
      this.logger.warn({ err, service }, 'service API description unavailable; generic schemas');
    }
    this.cache.set(service, { doc, until: Date.now() + (doc ? this.ttlMs : this.retryMs) });
    return doc;
  }
}
