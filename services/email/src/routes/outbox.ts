import { ErrorBody, MailIdParams, OutboxPage, OutboxQuery, SentMailDetail } from '@parley/contracts';
import type { ServiceDeps, ServiceInstance } from '@parley/kit';
import { sanitizeEmailHtml } from '../domain/email-html.ts';
import { headersOf, partOf } from '../domain/mime.ts';
import type { Transports } from '../providers/index.ts';
import type { MailRepository } from '../repo/mail.repository.ts';

/**
 * The Sent mail view (like Mailpit): every message the platform sent, whatever the
 * transport, with its HTML, text, headers, raw MIME and calendar part.
 */
export async function outboxRoutes(
  app: ServiceInstance,
  opts: { deps: ServiceDeps; mail: MailRepository; transports: Transports },
) {
  const { deps, mail, transports } = opts;

  app.get(
    '/api/admin/email/outbox',
    { onRequest: deps.auth.admin, schema: { querystring: OutboxQuery, response: { 200: OutboxPage } } },
    async (request) => {
      const { limit = 50, offset = 0, q } = request.query;
      const [page, transport] = await Promise.all([
        mail.list({ limit, offset, ...(q?.trim() ? { q: q.trim() } : {}) }),
        transports.status(),
      ]);
      return {
        ...page,
        transport: transport.current ?? transport.chosen ?? 'local',
        transportDescription: transport.description,
      };
    },
  );

  app.get(
    '/api/admin/email/outbox/:id',
    {
      onRequest: deps.auth.admin,
      schema: { params: MailIdParams, response: { 200: SentMailDetail, 404: ErrorBody } },
    },
    async (request, reply) => {
      const row = await mail.get(request.params.id);
      if (!row) return reply.status(404).send({ error: 'Not Found', message: 'No such message' });
      const raw = Buffer.from(row.raw);
      const calendar = row.hasCalendar ? partOf(raw, 'text/calendar') : null;
      const t = row.tracking;
      const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
      reply.header('cache-control', 'no-store');
      return {
        id: row.id,
        messageId: row.messageId,
        kind: row.kind,
        from: row.fromAddress,
        to: row.toAddress,
        subject: row.subject,
        status: row.status,
        transport: row.transport,
        hasCalendar: row.hasCalendar,
        marketing: row.marketing,
        sizeBytes: row.sizeBytes,
        lastError: row.lastError,
        createdAt: row.createdAt.toISOString(),
        sentAt: iso(row.sentAt),
        html: row.html === null ? null : previewHtml(row.html),
        text: row.text,
        headers: headersOf(raw),
        raw: raw.toString('utf8'),
        calendar,
        attachments: calendar
          ? [
              {
                filename: 'invite.ics',
                contentType: 'application/ics',
                sizeBytes: Buffer.byteLength(calendar),
              },
            ]
          : [],
        tracking: t
          ? {
              trackingId: t.trackingId,
              status: t.status,
              openCount: t.openCount,
              proxyOpenCount: t.proxyOpenCount,
              clickCount: t.clickCount,
              openedAt: iso(t.openedAt),
              clickedAt: iso(t.clickedAt),
              lastClickUrl: t.lastClickUrl,
              deviceType: t.deviceType,
              browserType: t.browserType,
              bouncedAt: iso(t.bouncedAt),
              unsubscribedAt: iso(t.unsubscribedAt),
            }
          : null,
      };
    },
  );
}

/**
 * The stored HTML made safe to show an admin (in a sandboxed frame, too): no script, frame,
 * form or event handler survives sanitize-html, and viewing must not count as reading: the
 * open pixel is dropped and tracked links point at their destination.
 */
export function previewHtml(html: string): string {
  return sanitizeEmailHtml(html, {
    // Stored mail may carry inline (data:) images.
    allowedSchemesByTag: { img: ['http', 'https', 'data', 'cid'] },
    exclusiveFilter: (frame) => frame.tag === 'img' && /\/api\/track\/open\//.test(frame.attribs.src ?? ''),
    transformTags: {
      a: (tagName, attribs) => {
        const href = attribs.href ?? '';
        const tracked = /\/api\/track\/click\/[^?]+\?(.*)$/.exec(href);
        const destination = tracked ? new URLSearchParams(tracked[1]?.replace(/&amp;/g, '&')).get('u') : null;
        return {
          tagName,
          attribs: { ...attribs, href: destination ?? href, target: '_blank', rel: 'noopener noreferrer' },
        };
      },
    },
  });
}
