import { ClickQuery, TrackingIdParams } from '@parley/contracts';
import type { ServiceInstance } from '@parley/kit';
import type { TokenSigner } from '../../shared/tokens.ts';
import { browserTypeOf, deviceTypeOf, PIXEL_GIF, privacyProxyOf } from './domain/tracking.ts';
import type { TrackingBuffer } from './tracking.repository.ts';

/**
 * Open pixel and click redirect. Both answer at once and leave the hit to the write-behind
 * buffer. Tokens are checked before anything is recorded: a forged or altered token is a 404
 * (open) or 400 (click) and records nothing; a click redirects only to the URL signed into
 * the message (no open redirect).
 */
export async function trackingRoutes(
  app: ServiceInstance,
  opts: { signer: TokenSigner; buffer: TrackingBuffer },
) {
  const { signer, buffer } = opts;

  app.get('/api/track/open/:trackingId', { schema: { params: TrackingIdParams } }, async (request, reply) => {
    const trackingId = signer.verify('open', request.params.trackingId.replace(/\.gif$/, ''));
    if (!trackingId) return reply.status(404).send({ error: 'Not Found', message: 'Unknown tracking link' });
    const ua = request.headers['user-agent'];
    // A HEAD (link checkers, prefetchers) reads nothing: it is answered, not counted.
    if (request.method !== 'HEAD')
      buffer.push({
        trackingId,
        type: 'open',
        at: new Date(),
        userAgent: ua?.slice(0, 500) ?? null,
        ip: request.ip ?? null,
        clickUrl: null,
        proxy: privacyProxyOf(ua, request.ip),
        deviceType: deviceTypeOf(ua),
        browserType: browserTypeOf(ua),
      });
    return reply
      .header('content-type', 'image/gif')
      .header('cache-control', 'no-store, no-cache, must-revalidate, private')
      .header('expires', '0')
      .send(PIXEL_GIF);
  });

  app.get(
    '/api/track/click/:trackingId',
    { schema: { params: TrackingIdParams, querystring: ClickQuery } },
    async (request, reply) => {
      const { u, s } = request.query;
      const trackingId = request.params.trackingId;
      if (!u || !s || !/^https?:\/\//i.test(u) || !signer.verifyClick(trackingId, u, s))
        return reply.status(400).send({ error: 'Bad Request', message: 'This link is not valid.' });
      const ua = request.headers['user-agent'];
      if (request.method !== 'HEAD')
        buffer.push({
          trackingId,
          type: 'click',
          at: new Date(),
          userAgent: ua?.slice(0, 500) ?? null,
          ip: request.ip ?? null,
          clickUrl: u.slice(0, 2048),
          proxy: null,
          deviceType: deviceTypeOf(ua),
          browserType: browserTypeOf(ua),
        });
      return reply.header('cache-control', 'no-store, private').redirect(u, 302);
    },
  );
}
