import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** An error whose status and message are safe to show to the caller. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? (status >= 500 ? 'Internal Server Error' : 'Error');
}

/**
 * The one error handler: `{ error, message }`; 4xx explain the problem, 5xx hide their
 * details from the caller and are logged with the request id.
 */
export function errorHandler(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) {
  const status =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  if (status >= 500 && (reply.raw.destroyed || request.raw.socket?.destroyed)) {
    // The client went away mid-answer (a closed tab, a load tool stopping): nothing failed
    // on our side and nobody is left to answer.
    request.log.info(
      { err: { message: error.message, code: (error as FastifyError).code } },
      'client closed the connection',
    );
    return reply;
  }
  if (status === 500 && !(error instanceof HttpError) && MALFORMED_MULTIPART.test(error.message)) {
    // The multipart parser (busboy) could not read the body the client sent (no boundary, cut
    // short, a broken part header): the client's mistake, on every upload route at once.
    return reply
      .status(400)
      .send({ error: 'Bad Request', message: `The multipart body could not be read: ${error.message}` });
  }
  if (status === 500 && isDatabaseUnavailable(error)) {
    // An outage of the service's database, not a bug: say so, and when to come back.
    request.log.warn({ err: error }, 'database unavailable');
    return reply.status(503).header('retry-after', '5').send({
      error: 'Service Unavailable',
      message: 'This service is temporarily unavailable. Please try again in a few seconds.',
    });
  }
  if (status >= 500 && error instanceof HttpError) {
    // A deliberate answer (an outside provider refused, a dependency is away): its message was
    // written for the caller.
    request.log.warn({ err: error }, 'request answered with a server-side refusal');
    for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
    return reply.status(status).send({ error: statusText(status), message: error.message });
  }
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    return reply
      .status(status)
      .send({ error: statusText(status), message: 'Something went wrong on our side. Please try again.' });
  }
  if (error instanceof HttpError) {
    for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
  }
  const validation = (error as FastifyError).validation;
  if (validation) {
    const details = validation.map((v) => ({
      path:
        (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.') ||
        String((v.params as { missingProperty?: string })?.missingProperty ?? ''),
      message: v.message ?? 'is invalid',
    }));
    const first = details[0];
    const where = (error as FastifyError).validationContext ?? 'request';
    const message = first
      ? `Invalid ${where}: ${first.path ? `${first.path} ` : ''}${first.message}`
      : error.message;
    return reply.status(400).send({ error: 'Bad Request', message, details });
  }
  return reply.status(status).send({ error: statusText(status), message: error.message });
}

/** What @fastify/busboy throws for a multipart body it cannot parse (plain Errors, no status). */
const MALFORMED_MULTIPART =
  /^(?:Multipart: Boundary not found|Boundary required|Missing Content-Type-header\.|Unsupported Content-Type\.|Unexpected end of multipart data|Malformed part header|\w+ terminated early due to unexpected end of multipart data)$/;

/** 404 for unknown routes, in the same shape. */
export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  reply
    .status(404)
    .send({ error: 'Not Found', message: `Route ${request.method} ${request.url.split('?')[0]} not found` });
}

const UNAVAILABLE_CODES = new Set([
  // PostgreSQL: admin shutdown, crash shutdown, cannot connect now, connection failures.
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  // Sockets.
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  // Prisma: cannot reach the server, connection closed, pool timeout.
  'P1001',
  'P1017',
  'P2024',
]);
// "Unable to start a transaction in the given time": every pooled connection is busy (overload).
const UNAVAILABLE_MESSAGES =
  /Unable to start a transaction in the given time|Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (?:shutting down|starting up)|Can't reach database server/i;

/** True when `err` (or what caused it) says the database cannot be reached right now. */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; originalCode?: unknown };
  if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
  if (typeof e.originalCode === 'string' && UNAVAILABLE_CODES.has(e.originalCode)) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}
