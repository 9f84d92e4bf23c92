import { createHash } from 'node:crypto';
import {
  CAMPAIGN_MESSAGES,
  type ConvertBlogBody,
  DEFAULT_NEWSLETTER_CUSTOMIZATIONS,
  FIX_HTML_KINDS,
  type FixHtmlBody,
  type FixHtmlItem,
  type FixHtmlKind,
  type FixHtmlResponse,
  MISSING_FIELDS_CONTACT,
  NEWSLETTER_LIMITS,
  NEWSLETTER_MESSAGES,
  type Newsletter,
  type NewsletterAnalytics,
  type NewsletterAudience,
  type NewsletterAudienceSummary,
  type NewsletterBlogPostSummary,
  type NewsletterEngagementReport,
  type NewsletterInput,
  type NewsletterPreview,
  type NewsletterSendResponse,
  plural,
  SAMPLE_CONTACT,
} from '@parley/contracts';
import { badRequest, conflict, HttpError, notFound } from '@parley/kit';
import { sanitizeEmailHtml, textOfHtml } from '../../shared/email-html.ts';
import type { CampaignReportsRepository } from '../analytics/campaign-reports.repository.ts';
import { addCounts, NO_MAIL, performanceOf } from '../analytics/domain/analytics.ts';
import { engagementReport } from '../analytics/domain/engagement.ts';
import type { Audience } from '../campaigns/audience.repository.ts';
import type { CampaignsRepository, FixableDrafts } from '../campaigns/campaigns.repository.ts';
import { personalise } from '../campaigns/domain/compose.ts';
import type { MergeCheck } from '../campaigns/domain/merge-check.ts';
import type { LaunchResult, LaunchService } from '../campaigns/launch.service.ts';
import type { Mailer } from '../delivery/mailer.service.ts';
import type { BlogCopyRepository } from './blog-copy.repository.ts';
import { proposeHtmlFix } from './domain/html-fix.ts';
import { buildNewsletter, withPreheader } from './domain/newsletter-template.ts';
import type { NewslettersRepository } from './newsletters.repository.ts';

/**
 * Newsletters (email marketing §2 Newsletter screen, §3, §4, §5, §7, §8): made from a post of
 * the blog copy or by hand, sent through the campaign pipeline by way of a companion campaign
 * (see newsletters.repository.ts), to audiences the server resolves (everyone, chosen contacts,
 * chosen companies), plus the analytics, engagement report and 'Fix HTML Issues'.
 */

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').trim();

/** A body's audience: `audience`, else contactIds alone (a contacts audience), else null. */
export function audienceOf(b: {
  audience?: NewsletterAudience | undefined;
  contactIds?: number[] | undefined;
}) {
  if (b.audience) return b.audience;
  if (b.contactIds?.length) return { type: 'contacts' as const, contactIds: b.contactIds };
  return null;
}

/** The launch service's form of an audience (company names lower-cased and trimmed, blanks dropped). */
export function resolveAudience(a: NewsletterAudience): Audience {
  switch (a.type) {
    case 'all':
      return { addressBookIds: [], contactIds: [], allContacts: true, companies: [] };
    case 'contacts':
      return {
        addressBookIds: [],
        contactIds: [...new Set(a.contactIds)],
        allContacts: false,
        companies: [],
      };
    case 'companies': {
      const companies = [...new Set(a.companies.map((c) => c.trim().toLowerCase()).filter(Boolean))];
      if (!companies.length) throw badRequest(NEWSLETTER_MESSAGES.noContacts);
      return { addressBookIds: [], contactIds: [], allContacts: false, companies };
    }
  }
}

/** Parses the schedule time: 'Please select a date and time' when missing or unreadable, in the future. */
export function scheduleTime(value: string | undefined, now = Date.now()): Date {
  const s = value?.trim();
  if (!s) throw badRequest(NEWSLETTER_MESSAGES.dateTime);
  const t = Date.parse(s);
  if (Number.isNaN(t)) throw badRequest(NEWSLETTER_MESSAGES.dateTime);
  if (t <= now) throw badRequest(NEWSLETTER_MESSAGES.pastDate);
  return new Date(t);
}

export class NewslettersService {
  constructor(
    private readonly deps: {
      repo: NewslettersRepository;
      campaigns: CampaignsRepository;
      blog: BlogCopyRepository;
      launches: LaunchService;
      mailer: Mailer;
      analytics: CampaignReportsRepository;
      origin: string;
    },
  ) {}

  // ── create, convert, preview, delete ────────────────────────────────────────

  async create(input: NewsletterInput): Promise<Newsletter> {
    const name = oneLine(input.name ?? '');
    const subject = oneLine(input.subject ?? '');
    // Saved as it will be sent: through the e-mail allowlist.
    const html = input.htmlContent?.trim() ? sanitizeEmailHtml(input.htmlContent) : '';
    if (!name || !subject || !html.trim()) throw badRequest(NEWSLETTER_MESSAGES.required);
    if (name.length > NEWSLETTER_LIMITS.name)
      throw badRequest(`Name must be at most ${NEWSLETTER_LIMITS.name} characters`);
    if (subject.length > NEWSLETTER_LIMITS.subject)
      throw badRequest(`Subject must be at most ${NEWSLETTER_LIMITS.subject} characters`);
    const preheader = input.preheader ? oneLine(input.preheader) : '';
    if (preheader.length > NEWSLETTER_LIMITS.preheader)
      throw badRequest(`Preheader must be at most ${NEWSLETTER_LIMITS.preheader} characters`);
    const from = await this.deps.mailer.sender();
    return this.deps.repo.create({
      name,
      subject,
      preheader: preheader || null,
      fromName: from.name ?? 'Parley',
      fromEmail: from.address,
      htmlContent: html,
      textContent: input.textContent?.trim() ? input.textContent : null,
      blogPostId: null,
      customizations: DEFAULT_NEWSLETTER_CUSTOMIZATIONS,
    });
  }

  /** The published posts of the blog copy, newest first, with the newsletters made from each. */
  async blogPosts(): Promise<NewsletterBlogPostSummary[]> {
    const posts = await this.deps.blog.published(500);
    const counts = await this.deps.repo.countsByPost(posts.map((p) => p.id));
    return posts.map((p) => ({
      id: p.id,
      slug: p.slug,
      title: p.title,
      excerpt: p.excerpt,
      author: p.author,
      featuredImage: p.featuredImage,
      tags: p.tags,
      publishedAt: p.publishedAt,
      newsletterCount: counts.get(p.id) ?? 0,
    }));
  }

  async convert(postId: string, body: ConvertBlogBody | undefined): Promise<Newsletter> {
    const post = await this.deps.blog.get(postId);
    if (!post) throw notFound(NEWSLETTER_MESSAGES.postNotFound);
    if (post.status !== 'published') throw notFound(NEWSLETTER_MESSAGES.postNotFound);
    const customizations = { ...DEFAULT_NEWSLETTER_CUSTOMIZATIONS, ...(body?.customizations ?? {}) };
    const [brand, from] = await Promise.all([this.deps.mailer.brand(), this.deps.mailer.sender()]);
    const built = await buildNewsletter(post, {
      origin: this.deps.origin,
      brand: brand.name,
      customizations,
      preheader: body?.preheader ? oneLine(body.preheader) : undefined,
    });
    const title = oneLine(post.title) || post.slug;
    return this.deps.repo.create({
      name: title.slice(0, NEWSLETTER_LIMITS.name),
      subject: title.slice(0, NEWSLETTER_LIMITS.subject),
      preheader: built.preheader.slice(0, NEWSLETTER_LIMITS.preheader) || null,
      fromName: from.name ?? 'Parley',
      fromEmail: from.address,
      // The template escapes the post; the allowlist still has the last word, as for any save.
      htmlContent: sanitizeEmailHtml(built.html),
      textContent: built.text,
      blogPostId: post.id,
      customizations,
    });
  }

  /**
   * The mail as a reader sees it, sanitised for showing: the sample contact's merge fields, or
   * (`missing`) a recipient with no first name, last name or company, who sees the fallbacks.
   */
  async preview(id: number, contact: 'sample' | 'missing' = 'sample'): Promise<NewsletterPreview> {
    const n = await this.deps.repo.require(id);
    const who = contact === 'missing' ? MISSING_FIELDS_CONTACT : SAMPLE_CONTACT;
    const html = withPreheader(n.htmlContent, n.preheader);
    const unsubscribe = `${this.deps.origin}/unsubscribe`;
    return {
      subject: personalise(n.subject, who, false),
      preheader: n.preheader === null ? null : personalise(n.preheader, who, false),
      html: sanitizeEmailHtml(personalise(html, who, true, unsubscribe)),
      text: personalise(n.textContent?.trim() ? n.textContent : textOfHtml(html), who, false, unsubscribe),
    };
  }

  /** The pre-send check of merge fields for the audience the send dialog holds. */
  async mergeCheck(id: number, audience: NewsletterAudience, testRequested: boolean): Promise<MergeCheck> {
    const n = await this.deps.repo.require(id);
    return this.deps.launches.mergeCheck(
      { subject: n.subject, preheader: n.preheader, html: n.htmlContent, text: n.textContent },
      resolveAudience(audience),
      testRequested,
    );
  }

  /** Any status but sending; the companion campaign (sends, recipients) goes with it. */
  delete(id: number): Promise<void> {
    return this.deps.repo.deleteUnlessSending(id);
  }

  // ── sending ─────────────────────────────────────────────────────────────────

  private async respond(id: number, r: LaunchResult, what: string): Promise<NewsletterSendResponse> {
    const newsletter = await this.deps.repo.require(id);
    const who = r.testMode
      ? `${plural(r.recipients, 'test address', 'test addresses')} (test mode; ${plural(r.originalRecipients, 'live recipient')})`
      : plural(r.recipients, 'recipient');
    return {
      success: true,
      message: r.scheduled
        ? `Newsletter scheduled for ${newsletter.scheduledAt}: ${who}`
        : r.testMode
          ? `Test-mode send to ${who}; the newsletter stays as it was`
          : `${what} to ${who}`,
      newsletterId: id,
      sendId: r.sendId,
      testMode: r.testMode,
      recipients: r.recipients,
      originalRecipients: r.originalRecipients,
      newsletter,
    };
  }

  /** The launch service's 409 about a campaign is, here, about the newsletter. */
  private async launch(
    campaignId: number,
    kind: 'send' | 'resend',
    audience: Audience,
    testRequested: boolean,
  ): Promise<LaunchResult> {
    try {
      return await this.deps.launches.launch(campaignId, { kind, ...audience, testRequested });
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 409)
        throw conflict(kind === 'send' ? NEWSLETTER_MESSAGES.notDraft : NEWSLETTER_MESSAGES.notSent);
      throw err;
    }
  }

  private async requireStatus(
    id: number,
    status: Newsletter['status'],
    message: string,
  ): Promise<Newsletter> {
    const n = await this.deps.repo.require(id);
    if (n.status !== status) throw conflict(`${message}: this newsletter is ${n.status}`);
    return n;
  }

  async send(
    id: number,
    b: { audience?: NewsletterAudience; contactIds?: number[]; confirmSend: boolean; testMode?: boolean },
  ): Promise<NewsletterSendResponse> {
    if (b.confirmSend !== true) throw badRequest(CAMPAIGN_MESSAGES.confirm);
    const a = audienceOf(b);
    if (!a) throw badRequest(NEWSLETTER_MESSAGES.noContacts);
    const audience = resolveAudience(a);
    await this.requireStatus(id, 'draft', NEWSLETTER_MESSAGES.notDraft);
    const campaignId = await this.deps.repo.prepareCompanion(id, null);
    const r = await this.launch(campaignId, 'send', audience, b.testMode === true);
    return this.respond(id, r, 'Newsletter is being sent');
  }

  /** Scheduled sends resolve their recipients at dispatch; no audience given: every active contact. */
  async schedule(
    id: number,
    b: { scheduledAt?: string; audience?: NewsletterAudience; contactIds?: number[] },
  ): Promise<NewsletterSendResponse> {
    const at = scheduleTime(b.scheduledAt);
    const audience = resolveAudience(audienceOf(b) ?? { type: 'all' });
    await this.requireStatus(id, 'draft', NEWSLETTER_MESSAGES.notDraft);
    const campaignId = await this.deps.repo.prepareCompanion(id, at);
    const r = await this.launch(campaignId, 'send', audience, false);
    return this.respond(id, r, 'Newsletter scheduled');
  }

  async unschedule(id: number): Promise<NewsletterSendResponse> {
    const n = await this.requireStatus(id, 'scheduled', NEWSLETTER_MESSAGES.notScheduled);
    const campaignId = n.campaignId as number;
    try {
      await this.deps.launches.cancel(campaignId);
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 409)
        throw conflict(NEWSLETTER_MESSAGES.notScheduled);
      throw err;
    }
    await this.deps.campaigns.clearSchedule(campaignId);
    const newsletter = await this.deps.repo.require(id);
    return {
      success: true,
      message: 'Newsletter unscheduled: back to draft',
      newsletterId: id,
      sendId: null,
      testMode: false,
      recipients: 0,
      originalRecipients: 0,
      newsletter,
    };
  }

  /**
   * A send paused by the cooling period after connection failures (or an admin) goes on; while
   * the cooling period lasts the sender refuses with its message.
   */
  async resume(id: number): Promise<NewsletterSendResponse> {
    const n = await this.requireStatus(id, 'paused', NEWSLETTER_MESSAGES.notPaused);
    await this.deps.launches.resume(n.campaignId as number);
    const newsletter = await this.deps.repo.require(id);
    return {
      success: true,
      message: 'Newsletter sending resumed',
      newsletterId: id,
      sendId: newsletter.progress?.sendId ?? null,
      testMode: newsletter.progress?.testMode ?? false,
      recipients: newsletter.progress?.total ?? 0,
      originalRecipients: newsletter.progress?.originalRecipients ?? 0,
      newsletter,
    };
  }

  async resend(id: number, b: { audience?: NewsletterAudience; contactIds?: number[] }) {
    const a = audienceOf(b);
    if (!a) throw badRequest(NEWSLETTER_MESSAGES.noContacts);
    const audience = resolveAudience(a);
    const n = await this.requireStatus(id, 'sent', NEWSLETTER_MESSAGES.notSent);
    const r = await this.launch(n.campaignId as number, 'resend', audience, false);
    return this.respond(id, r, 'Newsletter is being resent');
  }

  // ── audiences ───────────────────────────────────────────────────────────────

  /** Everyone (active, unsuppressed, by distinct address) and the companies with their counts. */
  async audienceSummary(): Promise<NewsletterAudienceSummary> {
    const [totalContacts, companies] = await Promise.all([
      this.deps.repo.audienceTotal(),
      this.deps.repo.audienceCompanies(),
    ]);
    return { totalContacts, companies };
  }

  audienceCount(a: NewsletterAudience): Promise<number> {
    return a.type === 'all'
      ? this.deps.repo.audienceTotal()
      : this.deps.repo.audienceCount(resolveAudience(a));
  }

  // ── analytics ───────────────────────────────────────────────────────────────

  async analytics(id?: number, includeTest = false): Promise<NewsletterAnalytics> {
    const list = id === undefined ? await this.deps.repo.list() : [await this.deps.repo.require(id)];
    const counts = await this.deps.analytics.countsByCampaign(
      list.map((n) => n.campaignId).filter((c): c is number => c !== null),
      includeTest,
    );
    const rows = list.map((n) => {
      const p = performanceOf((n.campaignId !== null ? counts.get(n.campaignId) : undefined) ?? NO_MAIL);
      return {
        id: n.id,
        name: n.name,
        status: n.status,
        sentAt: n.sentAt,
        totalSent: p.totalSent,
        totalOpened: p.totalOpened,
        totalClicked: p.totalClicked,
        openRate: p.openRate,
        clickRate: p.clickRate,
      };
    });
    const all = performanceOf([...counts.values()].reduce(addCounts, { ...NO_MAIL }));
    return {
      includesTestMail: includeTest,
      totalSent: all.totalSent,
      totalOpened: all.totalOpened,
      totalClicked: all.totalClicked,
      openRate: all.openRate,
      clickRate: all.clickRate,
      campaigns: rows,
    };
  }

  /** The companion campaign's report; before the first send an empty one. */
  async engagement(id: number, includeTest = false): Promise<NewsletterEngagementReport> {
    const n = await this.deps.repo.require(id);
    return engagementReport(
      this.deps.analytics,
      { id: n.id, name: n.name, status: n.status, sentAt: n.sentAt },
      n.campaignId,
      includeTest,
    );
  }

  // ── Fix HTML Issues ─────────────────────────────────────────────────────────

  /**
   * 'Fix HTML Issues' over draft newsletters and draft campaigns (not newsletters' companions):
   * a dry run proposes each draft's fix with its diff and writes nothing; `apply` fixes the
   * chosen drafts whose content is still what their proposal was made from; the spec's call
   * (neither) fixes every draft of `kinds`. A draft is written only with a real change.
   */
  async fixHtml(b: FixHtmlBody = {}): Promise<FixHtmlResponse> {
    if (b.dryRun && b.apply) throw badRequest('Ask for a dry run or apply chosen fixes, not both');
    const sources: Record<FixHtmlKind, FixableDrafts> = {
      newsletter: this.deps.repo,
      campaign: this.deps.campaigns,
    };
    const kinds = b.apply ? [...new Set(b.apply.map((a) => a.kind))] : (b.kinds ?? [...FIX_HTML_KINDS]);
    const items: FixHtmlItem[] = [];
    const skipped: FixHtmlResponse['skipped'] = [];
    let checked = 0;
    const propose = async (kind: FixHtmlKind, id: number) => {
      const draft = await sources[kind].draftContent(id);
      if (!draft) return null;
      const p = proposeHtmlFix(draft.html, { origin: this.deps.origin, text: draft.text });
      const item: FixHtmlItem = {
        kind,
        id,
        name: draft.name,
        changes: p.changes,
        fingerprint: fingerprintOf(draft),
        diff: p.diff,
        textPart: p.textWritten === null ? null : p.textWritten.slice(0, 2000),
      };
      return { draft, fix: p, item };
    };
    const write = async (kind: FixHtmlKind, x: NonNullable<Awaited<ReturnType<typeof propose>>>) =>
      sources[kind].replaceDraftContent(x.item.id, x.draft, { html: x.fix.html, text: x.fix.text });

    if (b.apply) {
      const fixable = new Map<FixHtmlKind, Set<number>>();
      for (const kind of kinds) fixable.set(kind, new Set(await sources[kind].fixableDraftIds()));
      for (const choice of b.apply) {
        checked++;
        const x = fixable.get(choice.kind)?.has(choice.id) ? await propose(choice.kind, choice.id) : null;
        const name = x?.draft.name ?? '';
        const skip = (reason: string) => skipped.push({ kind: choice.kind, id: choice.id, name, reason });
        if (!x) skip('not a draft any more (or deleted)');
        else if (x.item.fingerprint !== choice.fingerprint) skip('edited since the preview: check it again');
        else if (!x.item.changes.length) skip('nothing to fix any more');
        else if (await write(choice.kind, x)) items.push(x.item);
        else skip('changed or sent while it was being fixed: check it again');
      }
    } else {
      for (const kind of kinds) {
        const ids = await sources[kind].fixableDraftIds();
        checked += ids.length;
        for (const id of ids) {
          const x = await propose(kind, id);
          if (!x?.item.changes.length) continue;
          if (b.dryRun || (await write(kind, x))) items.push(x.item);
        }
      }
    }
    const drafts = (n: number) => `${n} draft${n === 1 ? '' : 's'}`;
    return {
      success: true,
      dryRun: b.dryRun === true,
      kinds,
      fixedCount: b.dryRun ? 0 : items.length,
      checkedCount: checked,
      items,
      skipped,
      message: b.dryRun
        ? items.length
          ? `${items.length} of ${drafts(checked)} can be fixed; nothing was changed yet`
          : `No HTML issues found in ${drafts(checked)}`
        : items.length
          ? `Fixed the HTML of ${items.length} of ${drafts(checked)}`
          : skipped.length
            ? `Nothing was fixed: ${skipped.length} of ${drafts(checked)} left as they are`
            : `No HTML issues found in ${drafts(checked)}`,
    };
  }
}

/** What a proposal was made from: the draft's HTML and text part. */
export const fingerprintOf = (d: { html: string; text: string | null }) =>
  createHash('sha256')
    .update(d.html)
    .update(d.text === null ? '\u0001' : `\u0000${d.text}`)
    .digest('base64url')
    .slice(0, 22);
