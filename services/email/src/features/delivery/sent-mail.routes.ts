import {
  DEFAULT_SENT_MAIL_RETENTION_DAYS,
  ErrorBody,
  MailIdParams,
  OutboxPage,
  OutboxQuery,
  SentMailDetail,
} from '@parley/contracts';
import type { ServiceDeps, ServiceInstance } from '@parley/kit';
import { sanitizeEmailHtml } from '../../shared/email-html.ts';
import { headersOf, partOf } from './domain/mime.ts';
import { type CampaignMailRef, type SentMailRepository, trackingIdOfMailId } from './sent-mail.repository.ts';
import type { Transports } from './transports/index.ts';

/** A campaign mail as composed again for Sent mail: the same bytes it was sent with. */
export interface RenderedCampaignMail {
  messageId: string;
  subject: string;
  html: string;
  text: string;
  raw: Buffer;
  date: Date;
}

/**
 * Renders campaign mail again; each call answers a renderer for one answer (its send's composers
 * made once), which answers null for a mail whose send's content cannot be had.
 */
export type CampaignMailRenderer = () => (m: CampaignMailRef) => Promise<RenderedCampaignMail | null>;

/**
 * The Sent mail view (like Mailpit): every message the platform sent, whatever the
 * transport, for SENT_MAIL_RETENTION_DAYS, with its HTML, text, headers, raw MIME and
 * calendar part. Campaign and newsletter mail is listed from its recipient rows and rendered
 * again here from its send's content (docs/adr/0056-sent-mail-from-recipient-rows.md).
 */
export async function outboxRoutes(
  app: ServiceInstance,
  opts: {
    deps: ServiceDeps;
    mail: SentMailRepository;
    transports: Transports;
    /** Campaign mail rendered again from its send's content (the campaigns feature's). */
    campaignMail: CampaignMailRenderer;
    retentionDays: number;
  },
) {
  const { deps, mail, transports } = opts;
  const retentionDays = opts.retentionDays ?? DEFAULT_SENT_MAIL_RETENTION_DAYS;
  const renderers = opts.campaignMail;

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
          retentionDays,
        }),
        mail.campaignsWithMail(),
        transports.status(),
      ]);
      // A campaign mail's subject, size and Message-ID: composed again, as the detail shows it.
      const render = renderers();
      const items = await Promise.all(
        page.items.map(async ({ campaignMail, ...item }) => {
          const again = campaignMail ? await render(campaignMail) : null;
          return again
            ? { ...item, subject: again.subject, sizeBytes: again.raw.length, messageId: again.messageId }
            : item;
        }),
      );
      reply.header('cache-control', 'no-store');
      return {
        ...page,
        items,
        retentionDays,
        campaigns,
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
      if (!row) {
        // Not a stored message: a campaign mail, whose id is its tracking id's bytes.
        const c = await mail.campaignMail(trackingIdOfMailId(request.params.id), retentionDays);
        const again = c?.summary.campaignMail ? await renderers()(c.summary.campaignMail) : null;
        if (!c || !again) return reply.status(404).send({ error: 'Not Found', message: 'No such message' });
        const { campaignMail: _, ...summary } = c.summary;
        reply.header('cache-control', 'no-store');
        return {
          ...summary,
          subject: again.subject,
          sizeBytes: again.raw.length,
          messageId: again.messageId,
          contentNote: null,
          html: previewHtml(again.html),
          text: again.text,
          headers: headersOf(again.raw),
          raw: again.raw.toString('utf8'),
          calendar: null,
          attachments: [],
          tracking: trackingOf(c.tracking),
        };
      }
      const raw: Buffer = row.raw ? Buffer.from(row.raw) : Buffer.alloc(0);
      const { html, text } = row;
      const calendar = row.hasCalendar ? partOf(raw, 'text/calendar') : null;
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
        rendered: false,
        contentNote: null,
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
        tracking: trackingOf(row.tracking),
      };
    },
  );
}

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

/** What the detail shows of a message's tracking row. */
function trackingOf(
  t: {
    trackingId: string;
    status: string;
    openCount: number;
    proxyOpenCount: number;
    clickCount: number;
    openedAt: Date | null;
    clickedAt: Date | null;
    lastClickUrl: string | null;
    deviceType: string | null;
    browserType: string | null;
    bouncedAt: Date | null;
    unsubscribedAt: Date | null;
  } | null,
) {
  return t
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
    : null;
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
