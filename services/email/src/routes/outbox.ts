import {
  DEFAULT_SENT_MAIL_RETENTION_DAYS,
  ErrorBody,
  MailIdParams,
  OutboxPage,
  OutboxQuery,
  SentMailDetail,
} from '@parley/contracts';
import type { ServiceDeps, ServiceInstance } from '@parley/kit';
import type pg from 'pg';
import { composerFor, readSendContent } from '../campaigns/send-content.ts';
import { sanitizeEmailHtml } from '../domain/email-html.ts';
import { headersOf, partOf } from '../domain/mime.ts';
import type { TokenSigner } from '../domain/tokens.ts';
import type { Transports } from '../providers/index.ts';
import type { MailRepository } from '../repo/mail.repository.ts';

/**
 * The Sent mail view (like Mailpit): every message the platform sent, whatever the
 * transport, for SENT_MAIL_RETENTION_DAYS, with its HTML, text, headers, raw MIME and
 * calendar part. Campaign and newsletter mail is kept as metadata and rendered again here
 * from its send's content (docs/decisions.md, "Sent mail: every message, kept for a stated time").
 */
export async function outboxRoutes(
  app: ServiceInstance,
  opts: {
    deps: ServiceDeps;
    mail: MailRepository;
    transports: Transports;
    pool: pg.Pool;
    signer: TokenSigner;
    origin: string;
    retentionDays: number;
  },
) {
  const { deps, mail, transports } = opts;

  app.get(
    '/api/admin/email/outbox',
    { onRequest: deps.auth.admin, schema: { querystring: OutboxQuery, response: { 200: OutboxPage } } },
    async (request, reply) => {
      const { limit = 50, offset = 0, q, to, campaignId, kind, before } = request.query;
      const [page, campaigns, transport] = await Promise.all([
        mail.list({
          limit,
          offset,
          ...(before ? { before } : {}),
          ...(q?.trim() ? { q: q.trim() } : {}),
          ...(to?.trim() ? { to: to.trim() } : {}),
          ...(campaignId !== undefined ? { campaignId } : {}),
          ...(kind ? { kind } : {}),
        }),
        mail.campaignsWithMail(),
        transports.status(),
      ]);
      reply.header('cache-control', 'no-store');
      return {
        ...page,
        retentionDays: opts.retentionDays ?? DEFAULT_SENT_MAIL_RETENTION_DAYS,
        campaigns,
        transport: transport.current ?? transport.chosen ?? 'local',
        transportDescription: transport.description,
      };
    },
  );

  const renderAgain = (row: Parameters<typeof renderOf>[1]) =>
    renderOf(opts.pool, row, { origin: opts.origin, signer: opts.signer });

  app.get(
    '/api/admin/email/outbox/:id',
    {
      onRequest: deps.auth.admin,
      schema: { params: MailIdParams, response: { 200: SentMailDetail, 404: ErrorBody } },
    },
    async (request, reply) => {
      const row = await mail.get(request.params.id);
      if (!row) return reply.status(404).send({ error: 'Not Found', message: 'No such message' });
      let raw: Buffer = row.raw ? Buffer.from(row.raw) : Buffer.alloc(0);
      let html = row.html;
      let text = row.text;
      let contentNote: string | null = null;
      if (!row.raw) {
        const again = await renderAgain(row);
        if (again) ({ raw, html, text } = again);
        else contentNote = 'Its campaign was deleted, so its content can no longer be shown.';
      }
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
        campaignId:
          row.campaignId !== null && /^\d{1,9}$/.test(row.campaignId) ? Number(row.campaignId) : null,
        testMode: row.testMode,
        rendered: row.raw === null,
        contentNote,
        html: html === null ? null : previewHtml(html),
        text,
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
 * A campaign mail rendered again from its send's content and its recipient's fields, with
 * the Date it was composed at: the same bytes it was sent with (before a DKIM signature).
 * Null when its send no longer exists (its campaign was deleted).
 */
async function renderOf(
  pool: pg.Pool,
  row: {
    sendId: number | null;
    trackingId: string | null;
    toAddress: string;
    sendingAt: Date | null;
    createdAt: Date;
  },
  opts: { origin: string; signer: TokenSigner },
): Promise<{ raw: Buffer; html: string; text: string } | null> {
  if (row.sendId === null || row.trackingId === null) return null;
  const [content, recipient] = await Promise.all([
    readSendContent(pool, row.sendId),
    pool.query<{ first_name: string | null; last_name: string | null; company: string | null }>(
      `SELECT "first_name", "last_name", "company" FROM "email_campaign_recipients" WHERE "tracking_id" = $1`,
      [row.trackingId],
    ),
  ]);
  const r = recipient.rows[0];
  if (!content || !r) return null;
  const mail = await composerFor(content, opts).compose(
    { email: row.toAddress, firstName: r.first_name, lastName: r.last_name, company: r.company },
    row.trackingId,
    row.sendingAt ?? row.createdAt,
  );
  return { raw: mail.raw, html: mail.html, text: mail.text };
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
