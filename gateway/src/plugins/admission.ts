import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { type Exchange, RETRY_AFTER_S, refuse, SAFE_METHODS, tooLarge } from '../exchange.ts';
import type { ProxyReply } from '../proxy.ts';
import { RouteBudgets } from '../rate-limit.ts';
import type { TableRoute } from '../route-table.ts';

export interface AdmissionOptions {
  /** Origins a state change may come from besides the request's own (the configured site). */
  ownOrigins: ReadonlySet<string>;
  /** Signs the budget counts the owning services keep (INTERNAL_AUTH_SECRET). */
  secret: string;
  logger: Logger;
}

export interface Admission {
  /**
   * The checks every table route passes before anything is forwarded, all synchronous:
   * edge-cache hits, CSRF and the body limit. Returns true when it answered. (Per-IP budgets
   * are counted after these, by withinBudget.)
   */
  admit(x: Exchange, reply: ProxyReply, route: TableRoute): boolean;
  /**
   * Counts the request against its route's per-IP budget, kept by the owning service for every
   * gateway replica (rate-limit.ts). False when it answered: 429 past the budget, 503 when the
   * count could not be had (the service would not have answered the request either).
   */
  withinBudget(x: Exchange, reply: ProxyReply, route: TableRoute): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    admission: Admission;
  }
}

const plugin: FastifyPluginAsync<AdmissionOptions> = async (app, { ownOrigins, secret, logger }) => {
  const edge = app.edge;
  const budgets = new RouteBudgets(secret);

  function admit(x: Exchange, reply: ProxyReply, route: TableRoute): boolean {
    const { entry } = route;
    const method = x.method;
    if (route.guarded) {
      // Answers of the back office hold personal data: no browser or shared cache keeps them.
      reply.header('cache-control', 'no-store');
    } else if (entry.access === 'public' && (method === 'GET' || method === 'HEAD')) {
      const cached = edge.cache.get(x.url);
      if (cached) {
        edge.answer(x, reply, x.url, cached);
        return true;
      }
    }
    if (!SAFE_METHODS.has(method)) {
      if (entry.access !== 'signed-webhook' && !entry.signedTokenInPath) {
        // CSRF: a state change must come from our own pages. Browsers send Origin on every
        // cross-site POST; a foreign one is refused. Webhooks and signed-token links carry
        // their own authority, which a forged cross-site request cannot have.
        const origin = x.headers.origin;
        if (origin && origin !== `${x.protocol}://${x.host}` && !ownOrigins.has(origin)) {
          refuse(reply, 403, 'Forbidden', 'Cross-site request refused.');
          return true;
        }
      }
      const length = x.headers['content-length'];
      if (length !== undefined && Number(length) > route.bodyLimit) {
        tooLarge(x, reply, route.bodyLimit);
        return true;
      }
    }
    return false;
  }

  async function withinBudget(x: Exchange, reply: ProxyReply, route: TableRoute): Promise<boolean> {
    const { budget, upstream, entry } = route;
    if (!budget || !upstream) return true;
    let wait: number;
    try {
      wait = await budgets.hit(upstream, `${entry.path}|${x.ip}`, budget);
    } catch (err) {
      logger.warn({ err, service: entry.service }, 'budget count failed');
      if (reply.sent || x.raw.socket?.destroyed) return false;
      if (!x.raw.complete) reply.header('connection', 'close');
      reply.header('retry-after', RETRY_AFTER_S);
      refuse(
        reply,
        503,
        'Service Unavailable',
        `The ${entry.service} service is not available right now. Please try again in a few seconds.`,
      );
      return false;
    }
    if (!wait) return true;
    reply.header('retry-after', String(wait));
    refuse(reply, 429, 'Too Many Requests', `Too many requests. Please try again in ${wait} seconds.`);
    return false;
  }

  app.decorate('admission', { admit, withinBudget });
};

/** Admission and rate limits: edge-cache hits, CSRF, body limits and per-IP route budgets. */
export default fp(plugin, { name: 'parley-admission', dependencies: ['parley-edge-cache'] });
