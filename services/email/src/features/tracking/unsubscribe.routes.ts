import { ErrorBody, UnsubscribeParams, UnsubscribeResponse } from '@parley/contracts';
import { escapeMarkup as esc, inTransaction, type ServiceInstance } from '@parley/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { TokenSigner } from '../../shared/tokens.ts';
import type { Mailer } from '../delivery/mailer.service.ts';
import type { Suppress } from '../delivery/suppress.ts';
import { recordOutcome, trackingRow } from './tracking.repository.ts';

/**
 * Unsubscribe (RFC 8058). GET shows a page with a confirm button and changes nothing: link
 * scanners and previews follow GETs. POST unsubscribes at once, whether it is the page's form
 * or a mail provider's one-click `List-Unsubscribe=One-Click` post; a repeat is harmless.
 * The page is plain HTML from the service: no script, inline style only, so it works under a
 * strict CSP and with assistive technology.
 */
export async function unsubscribeRoutes(
  app: ServiceInstance,
  opts: { signer: TokenSigner; pool: pg.Pool; suppress: Suppress; mailer: Mailer },
) {
  const { signer, pool, suppress, mailer } = opts;

  // Forms and one-click posts arrive form-encoded (RFC 8058 allows multipart too); the body
  // carries nothing we need beyond its presence, so it is read as text and kept small.
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
    if (app.hasContentTypeParser(type)) app.removeContentTypeParser(type);
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 8192 }, (_req, body, done) =>
      done(null, { form: String(body) }),
    );
  }

  const wantsHtml = (request: FastifyRequest) => /text\/html/i.test(request.headers.accept ?? '');

  async function invalid(request: FastifyRequest, reply: FastifyReply) {
    const brand = await mailer.brand();
    if (wantsHtml(request))
      return page(reply.status(404), brand.name, 'Link not valid', [
        'This unsubscribe link is not valid. Use the link in the most recent mail you received, or reply to that mail and ask us to remove you.',
      ]);
    return reply.status(404).send({ error: 'Not Found', message: 'This unsubscribe link is not valid.' });
  }

  app.get('/api/unsubscribe/:token', { schema: { params: UnsubscribeParams } }, async (request, reply) => {
    const trackingId = signer.verify('unsubscribe', request.params.token);
    const row = trackingId ? await trackingRow(pool, trackingId) : null;
    if (!trackingId || !row) return invalid(request, reply);
    const brand = await mailer.brand();
    if (row.unsubscribedAt)
      return page(reply, brand.name, 'You are unsubscribed', [
        `${mask(row.email)} no longer receives marketing mail from ${brand.name}.`,
      ]);
    return page(
      reply,
      brand.name,
      'Unsubscribe',
      [`Stop marketing mail from ${brand.name} to ${mask(row.email)}?`],
      `/api/unsubscribe/${encodeURIComponent(request.params.token)}`,
    );
  });

  app.post(
    '/api/unsubscribe/:token',
    { schema: { params: UnsubscribeParams, response: { 200: UnsubscribeResponse, 404: ErrorBody } } },
    async (request, reply) => {
      const trackingId = signer.verify('unsubscribe', request.params.token);
      const row = trackingId ? await trackingRow(pool, trackingId) : null;
      if (!trackingId || !row) return invalid(request, reply);
      const form = (request.body as { form?: string } | undefined)?.form ?? '';
      const source = /List-Unsubscribe=One-Click/i.test(form) ? 'one-click' : 'unsubscribe-page';
      if (!row.unsubscribedAt) {
        // The audience's suppression list first: if it fails, nothing is marked done here
        // and the sender's retry (or the reader's second click) completes it.
        await suppress(row.email, 'unsubscribed', source);
        await inTransaction(pool, (client) =>
          recordOutcome(client, {
            trackingId,
            address: row.email,
            outcome: 'unsubscribe',
            reason: source,
            source,
            userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
            ip: request.ip ?? null,
            ...(row.campaignId ? { data: { campaignId: row.campaignId } } : {}),
          }),
        );
        request.log.info({ source }, 'unsubscribed');
      }
      const brand = await mailer.brand();
      if (wantsHtml(request) && source === 'unsubscribe-page')
        return page(reply, brand.name, 'You are unsubscribed', [
          `${mask(row.email)} will no longer receive marketing mail from ${brand.name}. Mail about your own bookings still reaches you.`,
        ]);
      return { success: true as const, message: 'Unsubscribed' };
    },
  );
}

/** a***@example.com: enough for the reader to recognise, not enough to harvest. */
export function mask(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}${'*'.repeat(Math.max(1, Math.min(local.length - 1, 6)))}@${domain}`;
}

function page(reply: FastifyReply, brand: string, heading: string, paragraphs: string[], action?: string) {
  const form = action
    ? `<form method="post" action="${esc(action)}"><input type="hidden" name="confirm" value="1"><button type="submit">Unsubscribe</button></form>`
    : '';
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(heading)} · ${esc(brand)}</title>
<style>
body{margin:0;font:16px/1.55 -apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;background:#f3f4f6;color:#1f2937}
main{max-width:32rem;margin:10vh auto;padding:2rem;background:#fff;border-radius:.5rem;box-shadow:0 1px 3px rgba(0,0,0,.1)}
h1{font-size:1.5rem;margin:0 0 1rem;color:#111827}
p{margin:0 0 1rem}
button{font:inherit;font-weight:600;color:#fff;background:#0e7490;border:0;border-radius:.375rem;padding:.75rem 1.5rem;cursor:pointer}
button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.brand{font-weight:700;color:#0e7490;margin-bottom:1.5rem}
</style>
</head>
<body>
<main>
<p class="brand">${esc(brand)}</p>
<h1>${esc(heading)}</h1>
${paragraphs.map((p) => `<p>${esc(p)}</p>`).join('\n')}
${form}
</main>
</body>
</html>`;
  return reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    )
    .header('referrer-policy', 'no-referrer')
    .send(html);
}
