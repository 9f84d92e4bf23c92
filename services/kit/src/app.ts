import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Span } from '@opentelemetry/api';
import { context } from '@opentelemetry/api';
import { Ajv } from 'ajv';
import { default as formatsPlugin } from 'ajv-formats';
import fastJsonStringify from 'fast-json-stringify';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
  type FastifySchemaValidationError,
  LogController,
} from 'fastify';
import type { Logger } from 'pino';
import { type BudgetCounter, fastifyRateLimitStore } from './budgets/store.ts';
import { errorHandler, HttpError, notFoundHandler } from './errors.ts';
import type { ServiceMetrics } from './metrics.ts';
import { contextFromHeaders, endSpan, startServerSpan } from './telemetry.ts';

export type ServiceInstance = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface BuildAppOptions {
  name: string;
  logger: Logger;
  metrics: ServiceMetrics;
  /** Checks for /health/ready (the database): all must pass for the process to take traffic. */
  readiness: Record<string, () => Promise<boolean>>;
  /**
   * Reported by /health/ready but never gating it (the bus: while NATS is away the outbox
   * keeps every event, so the service keeps serving).
   */
  readinessInfo?: Record<string, () => Promise<boolean>>;
  /** Body size limit in bytes (default 1 MiB). */
  bodyLimit?: number;
  /** Fastify `trustProxy` (default true: services sit behind the gateway). */
  trustProxy?: boolean | number | string;
  /** Label of a request's route in spans and metrics (default: the Fastify route). */
  routeLabel?: (request: FastifyRequest) => string;
  /** Rewrites a raw URL before routing (the gateway maps table paths to upstreams). */
  rewriteUrl?: (req: RawRequest) => string;
  /** Replaces the JSON 404 (the gateway serves the web app for unknown pages). */
  notFoundHandler?: (request: FastifyRequest, reply: import('fastify').FastifyReply) => unknown;
  /** The per-route limits (`config.rateLimit`). */
  rateLimit?: {
    /** Where the counts live (a service: its database, shared by the replicas); default this process's memory. */
    counter?: BudgetCounter;
    /** Multiplies every route's `max` (RATE_LIMIT_MULTIPLIER: load tests from one address); default 1. */
    multiplier?: number;
  };
}

type RawRequest = import('node:http').IncomingMessage;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    addUsedSchema: false,
    // allErrors stays off: with it, a crafted body could make validation expensive (DoS).
    allErrors: false,
    strict: false,
  });
  // ajv-formats is CommonJS: its plugin is the module itself or its `default`, by loader.
  const plugin = (formatsPlugin as unknown as { default?: unknown }).default ?? formatsPlugin;
  (plugin as (instance: Ajv) => Ajv)(ajv);
  return ajv;
}
const strictAjv = makeAjv(false);
const coercingAjv = makeAjv(true);

/**
 * Validators and response serializers are compiled on a route's first use, not while the app
 * boots: compiling every route's schemas was most of a start's CPU time, and most routes are
 * not called in a process's first seconds. Serializers are also shared per schema object across
 * the whole process (the contracts' error shape sits on nearly every route, and in the embedded
 * mode every service uses the same objects); Ajv caches validators by schema object itself.
 * Every schema is still compiled by the tests (the OpenAPI and fuzz suites reach every route).
 */
type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };
function lazyValidator(ajv: Ajv, schema: object): Validate {
  let validate: Validate | undefined;
  const onFirstUse: Validate = (data) => {
    validate ??= ajv.compile(schema) as Validate;
    const valid = validate(data);
    // Fastify reads the errors of the function it was given.
    onFirstUse.errors = validate.errors;
    return valid;
  };
  return onFirstUse;
}

const serializers = new WeakMap<object, (data: unknown) => string>();
function sharedSerializer(schema: object): (data: unknown) => string {
  let serialize = serializers.get(schema);
  if (!serialize) {
    serialize = fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0]);
    serializers.set(schema, serialize);
  }
  return serialize;
}
function compileSerializer({ schema }: { schema: unknown }): (data: unknown) => string {
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => {
    serialize ??= sharedSerializer(schema as object);
    return serialize(data);
  };
}

/** NUL, or a UTF-16 surrogate without its pair. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when a string anywhere in `value` (keys included) holds NUL or a lone surrogate. */
export function hasUnstorableText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (!value || typeof value !== 'object' || depth > 32 || Buffer.isBuffer(value)) return false;
  if (Array.isArray(value)) return value.some((v) => hasUnstorableText(v, depth + 1));
  for (const [k, v] of Object.entries(value)) {
    if (UNSTORABLE.test(k) || hasUnstorableText(v, depth + 1)) return true;
  }
  return false;
}

declare module 'fastify' {
  interface FastifyRequest {
    otelSpan?: Span;
  }
  interface FastifyInstance {
    /** Every route of the app (the auth matrix checks each is in the gateway's table). */
    parleyRoutes: Array<{ method: string; url: string }>;
  }
}

/**
 * The Fastify app every service is built on: request ids, trace context, structured
 * logs, Prometheus metrics, health endpoints, rate limiting (opt-in per route) and the one
 * error handler. Services add their routes to what this returns.
 */
export async function buildServiceApp(opts: BuildAppOptions): Promise<ServiceInstance> {
  const app = Fastify({
    loggerInstance: opts.logger as FastifyBaseLogger,
    // Per-request logs would dominate the output; metrics and spans cover requests, errors are logged.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // Fastify accepts a hop count at runtime; its types omit it.
    trustProxy: (opts.trustProxy ?? true) as boolean,
    ...(opts.rewriteUrl ? { rewriteUrl: opts.rewriteUrl } : {}),
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    // While it closes (its plugins' preClose run first, over several ticks) a request on an
    // idle keep-alive connection is answered with `Connection: close`, not refused with 503:
    // the stopping replica still has its database, and a 503 is not retried by a client.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>();

  // JSON bodies are validated strictly (a number is not a title, an array not a slug); only
  // query strings, params and headers — text by nature — are coerced to their declared types.
  app.setValidatorCompiler(({ schema, httpPart }) =>
    lazyValidator(httpPart === 'body' ? strictAjv : coercingAjv, schema as object),
  );
  app.setSerializerCompiler(compileSerializer);

  const routes: Array<{ method: string; url: string }> = [];
  app.decorate('parleyRoutes', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      if (method !== 'HEAD') routes.push({ method, url: route.url });
  });

  app.setErrorHandler(errorHandler);
  // Text PostgreSQL cannot store (NUL) or that is not Unicode (a lone surrogate) is refused here,
  // once for every route, before any handler sees it.
  app.addHook('preValidation', async (request) => {
    const where =
      (hasUnstorableText(request.params) && 'path') ||
      (hasUnstorableText(request.query) && 'query string') ||
      (hasUnstorableText(request.body) && 'body');
    if (where)
      throw new HttpError(
        400,
        `The ${where} contains a NUL character or invalid Unicode text, which cannot be stored.`,
      );
  });
  app.setNotFoundHandler(opts.notFoundHandler ?? notFoundHandler);

  // Trace context: a server span per request, parented on the caller's traceparent and
  // active for the handler, so logs, outbox rows and downstream calls carry the trace.
  const routeOf = opts.routeLabel ?? ((request: FastifyRequest) => request.routeOptions.url ?? 'unmatched');
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    const route = routeOf(request);
    const { span, ctx } = startServerSpan(`${request.method} ${route}`, contextFromHeaders(request.headers));
    span.setAttribute('http.request.method', request.method);
    span.setAttribute('http.route', route);
    request.otelSpan = span;
    context.with(ctx, done);
  });

  app.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request);
    const labels = { method: request.method, route, status_code: String(reply.statusCode) };
    opts.metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    opts.metrics.httpRequests.inc(labels);
    if (request.otelSpan) endSpan(request.otelSpan, reply.statusCode);
    if (reply.statusCode >= 500)
      request.log.warn({ url: request.url, statusCode: reply.statusCode }, 'server error');
    done();
  });

  // The service's OpenAPI 3.1 description, from the same TypeBox schemas that validate and
  // serialise its routes; the gateway merges every service's into /api/openapi.json.
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: `Parley ${opts.name}`, version: '1' },
    },
  });
  app.get('/openapi.json', { logLevel: 'silent', schema: { hide: true } }, async () => app.swagger());

  // RATE_LIMIT_MULTIPLIER raises every route's per-client limit alike. The route's options are
  // replaced, not changed: several routes may share one options object.
  const multiplier = opts.rateLimit?.multiplier ?? 1;
  if (multiplier !== 1) {
    app.addHook('onRoute', (route) => {
      const limit = (route.config as { rateLimit?: unknown } | undefined)?.rateLimit;
      if (!limit || typeof limit !== 'object') return;
      const max = (limit as { max?: unknown }).max;
      if (typeof max !== 'number') return;
      route.config = {
        ...route.config,
        rateLimit: { ...limit, max: Math.min(Math.round(max * multiplier), Number.MAX_SAFE_INTEGER) },
      } as typeof route.config;
    });
  }
  const counter = opts.rateLimit?.counter;
  await app.register(rateLimit, {
    global: false,
    ...(counter ? { store: fastifyRateLimitStore(counter) } : {}),
    errorResponseBuilder: (_req, ctx) =>
      new HttpError(429, `Too many requests. Please try again in ${Math.ceil(ctx.ttl / 1000)} seconds.`, {
        'retry-after': String(Math.ceil(ctx.ttl / 1000)),
      }),
  });

  app.get('/health/live', { logLevel: 'silent', schema: { hide: true } }, async () => ({
    status: 'ok',
    service: opts.name,
  }));

  app.get('/health/ready', { logLevel: 'silent', schema: { hide: true } }, async (_request, reply) => {
    const checks: Record<string, boolean> = {};
    await Promise.all(
      Object.entries(opts.readiness).map(async ([name, check]) => {
        checks[name] = await check().catch(() => false);
      }),
    );
    const ready = Object.values(checks).every(Boolean);
    const info: Record<string, boolean> = {};
    await Promise.all(
      Object.entries(opts.readinessInfo ?? {}).map(async ([name, check]) => {
        info[name] = await check().catch(() => false);
      }),
    );
    return reply
      .status(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'not ready', service: opts.name, checks, info });
  });

  app.get('/metrics', { logLevel: 'silent', schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-type', opts.metrics.registry.contentType);
    return opts.metrics.registry.metrics();
  });

  return app;
}
