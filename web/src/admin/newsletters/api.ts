import {
  type Contact,
  type ContactList,
  type ConvertBlogBody,
  type DeletedResponse,
  type FixHtmlBody,
  type FixHtmlResponse,
  type MergeCheckResponse,
  NEWSLETTER_CONTACT_FETCH_LIMIT,
  NEWSLETTER_ERROR_TITLES,
  type Newsletter,
  type NewsletterAnalytics,
  type NewsletterAudience,
  type NewsletterAudienceCount,
  type NewsletterAudienceSummary,
  type NewsletterBlogPostList,
  type NewsletterInput,
  type NewsletterList,
  type NewsletterPreview,
  type NewsletterSendResponse,
} from '@parley/contracts';
import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import type { ToastInput } from '../../components/toast/index.ts';
import { apiErrorOf } from '../../lib/api.ts';
import { sendErrorToast } from '../email/campaigns/api.ts';
import { adminQueryRetry, adminRequest, messageOr } from '../lib/api.ts';

/**
 * The newsletter screen's calls (email marketing §7 "newsletter calls"; the chosen paths are
 * in the gateway's route table and services/contracts/src/email-newsletters.ts) and its
 * notices (§8). Every key starts with NEWSLETTERS_PATH, so one invalidation refreshes the
 * list, the analytics, the audience and the blog posts.
 */

export const NEWSLETTERS_PATH = '/api/admin/newsletters';
export const NEWSLETTER_ANALYTICS_PATH = `${NEWSLETTERS_PATH}/analytics`;
export const BLOG_POSTS_PATH = `${NEWSLETTERS_PATH}/blog-posts`;
export const AUDIENCE_PATH = `${NEWSLETTERS_PATH}/audience`;
export const AUDIENCE_COUNT_PATH = `${AUDIENCE_PATH}/count`;
export const FIX_HTML_PATH = '/api/admin/campaigns/fix-html';
/** The send dialog's contact list (spec §7: limit 5000, cache-busting, no-cache headers). */
export const NEWSLETTER_CONTACTS_PATH = '/api/admin/email/contacts';

export const newsletterPath = (id: number) => `${NEWSLETTERS_PATH}/${id}`;
export const newsletterReportPath = (id: number) => `${newsletterPath(id)}/engagement-report`;

/** A sending newsletter's progress is read this often. */
export const PROGRESS_POLL_MS = 1000;
/** Spec §9: analytics stay fresh 5 minutes and are read again every 5 minutes. */
const ANALYTICS_REFRESH_MS = 5 * 60_000;

export function useNewsletters() {
  return useQuery<NewsletterList>({
    queryKey: [NEWSLETTERS_PATH],
    staleTime: 0,
    // A test-mode send changes no status: the list is read again until it is done.
    refetchInterval: (q) =>
      q.state.data?.some((n) => n.testSends.last?.status === 'sending') ? PROGRESS_POLL_MS * 2 : false,
    ...adminQueryRetry,
  });
}

/** One newsletter, read every second while it is sending (its `progress`), not otherwise. */
export function useSendingNewsletter(newsletter: Newsletter) {
  const live = newsletter.status === 'sending';
  return useQuery<Newsletter>({
    queryKey: [newsletterPath(newsletter.id)],
    initialData: newsletter,
    initialDataUpdatedAt: 0,
    enabled: live,
    staleTime: 0,
    refetchInterval: (q) => (live && q.state.data?.status === 'sending' ? PROGRESS_POLL_MS : false),
    ...adminQueryRetry,
  });
}

export function useNewsletterAnalytics() {
  return useQuery<NewsletterAnalytics>({
    queryKey: [NEWSLETTER_ANALYTICS_PATH],
    staleTime: ANALYTICS_REFRESH_MS,
    refetchInterval: ANALYTICS_REFRESH_MS,
    ...adminQueryRetry,
  });
}

export function useBlogPosts(enabled: boolean) {
  return useQuery<NewsletterBlogPostList>({
    queryKey: [BLOG_POSTS_PATH],
    enabled,
    staleTime: 0,
    ...adminQueryRetry,
  });
}

/**
 * The rendered, sanitised mail; read each time the preview opens. `missing`: as a recipient with
 * no first name, last name or company sees it (the fallbacks, or nothing).
 */
export function useNewsletterPreview(id: number | null, open: boolean, missing = false) {
  return useQuery<NewsletterPreview>({
    queryKey: [`${newsletterPath(id ?? 0)}/preview${missing ? '?contact=missing' : ''}`],
    enabled: open && id !== null,
    // Switching who it is shown to keeps the last rendering (and the picker) until the next one.
    placeholderData: keepPreviousData,
    staleTime: 0,
    gcTime: 0,
    ...adminQueryRetry,
  });
}

/** All Contacts' total and By Industry's companies, counted by the server. */
export function useAudienceSummary(enabled: boolean) {
  return useQuery<NewsletterAudienceSummary>({
    queryKey: [AUDIENCE_PATH],
    enabled,
    staleTime: 0,
    ...adminQueryRetry,
  });
}

/** How many the chosen companies reach (deduplicated by the server): the will-receive count. */
export function useAudienceCount(companies: readonly string[], enabled: boolean) {
  const sorted = [...companies].sort();
  return useQuery<NewsletterAudienceCount>({
    queryKey: [AUDIENCE_COUNT_PATH, sorted.join('\u0000')],
    queryFn: () =>
      adminRequest<NewsletterAudienceCount>('POST', AUDIENCE_COUNT_PATH, {
        audience: { type: 'companies', companies: sorted },
      }),
    enabled: enabled && sorted.length > 0,
    staleTime: 30_000,
    ...adminQueryRetry,
  });
}

/** The pre-send check of merge fields for the chosen audience (see the campaigns' useMergeCheck). */
export function useNewsletterMergeCheck(
  id: number | null,
  audience: NewsletterAudience | null,
  testMode: boolean,
  enabled: boolean,
) {
  const path = `${newsletterPath(id ?? 0)}/merge-check`;
  return useQuery<MergeCheckResponse>({
    queryKey: [path, audience, testMode],
    queryFn: () => adminRequest<MergeCheckResponse>('POST', path, { audience, testMode }),
    enabled: enabled && id !== null && audience !== null,
    // The last audience's result stays shown while the next one is counted.
    placeholderData: keepPreviousData,
    staleTime: 0,
    gcTime: 0,
    ...adminQueryRetry,
  });
}

export interface NewsletterContacts {
  contacts: Contact[];
  /** More contacts exist than the fetch limit: search on the server. */
  hasMore: boolean;
}

/**
 * The send dialog's contacts (spec §7): at most 5,000 per read, a cache-busting parameter and
 * no-cache headers, so a list imported a moment ago is there; an array or `{contacts}` is
 * accepted. `q` is the contacts call's own search (name, email, company) for lists beyond the
 * limit.
 */
export async function fetchNewsletterContacts(q: string, signal?: AbortSignal): Promise<NewsletterContacts> {
  const params = new URLSearchParams({ limit: String(NEWSLETTER_CONTACT_FETCH_LIMIT), offset: '0' });
  if (q.trim()) params.set('q', q.trim());
  params.set('_', String(Date.now()));
  const res = await fetch(`${NEWSLETTER_CONTACTS_PATH}?${params}`, {
    credentials: 'include',
    cache: 'no-store',
    headers: { 'Cache-Control': 'no-cache', Pragma: 'no-cache' },
    ...(signal ? { signal } : {}),
  });
  if (!res.ok) throw await apiErrorOf(res);
  const body = (await res.json()) as ContactList | Contact[];
  if (Array.isArray(body)) return { contacts: body, hasMore: false };
  return { contacts: body.contacts ?? [], hasMore: Boolean(body.meta?.hasMore) };
}

export function useNewsletterContacts(q: string, enabled: boolean) {
  return useQuery<NewsletterContacts>({
    queryKey: [NEWSLETTERS_PATH, 'contacts', q.trim()],
    queryFn: ({ signal }) => fetchNewsletterContacts(q, signal),
    enabled,
    // A longer search keeps the last answer on screen until its own arrives.
    placeholderData: keepPreviousData,
    staleTime: 0,
    gcTime: 60_000,
    ...adminQueryRetry,
  });
}

/** After any change: every newsletter read (list, analytics, audience, posts) again. */
export async function refreshNewsletters(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({
    predicate: (q) => String(q.queryKey[0]).startsWith(NEWSLETTERS_PATH),
  });
}

export const createNewsletter = (input: NewsletterInput) =>
  adminRequest<Newsletter>('POST', NEWSLETTERS_PATH, input);
export const deleteNewsletter = (id: number) => adminRequest<DeletedResponse>('DELETE', newsletterPath(id));

/** The spec shows nothing of the answer beyond success: the newsletter itself, or wrapped. */
export async function convertBlogPost(postId: string, body: ConvertBlogBody): Promise<Newsletter | null> {
  const r = await adminRequest<Newsletter | { newsletter?: Newsletter } | undefined>(
    'POST',
    `${NEWSLETTERS_PATH}/convert-blog/${encodeURIComponent(postId)}`,
    body,
  );
  if (!r || typeof r !== 'object') return null;
  if ('newsletter' in r) return r.newsletter ?? null;
  return 'id' in r ? r : null;
}

export const sendNewsletter = (id: number, audience: NewsletterAudience, testMode: boolean) =>
  adminRequest<NewsletterSendResponse>('POST', `${newsletterPath(id)}/send`, {
    newsletterId: id,
    audience,
    confirmSend: true,
    testMode,
  });
export const resendNewsletter = (id: number, audience: NewsletterAudience) =>
  adminRequest<NewsletterSendResponse>('POST', `${newsletterPath(id)}/resend`, { audience });
export const scheduleNewsletter = (id: number, scheduledAt: string, audience: NewsletterAudience) =>
  adminRequest<NewsletterSendResponse>('POST', `${newsletterPath(id)}/schedule`, { scheduledAt, audience });
export const unscheduleNewsletter = (id: number) =>
  adminRequest<NewsletterSendResponse>('POST', `${newsletterPath(id)}/unschedule`, {});
export const resumeNewsletter = (id: number) =>
  adminRequest<NewsletterSendResponse>('POST', `${newsletterPath(id)}/resume`, {});
/** 'Fix HTML Issues': a dry run (what would change, per draft) or the chosen fixes. */
export const fixHtml = (body: FixHtmlBody) => adminRequest<FixHtmlResponse>('POST', FIX_HTML_PATH, body);

// ── the spec's notices (§8) ─────────────────────────────────────────────────

export type NewsletterFailure = keyof typeof NEWSLETTER_ERROR_TITLES;

/** A failed call: titled for what failed, the server's message as the description. */
export function failureToast(what: NewsletterFailure, err: unknown): ToastInput {
  return {
    variant: 'destructive',
    title: NEWSLETTER_ERROR_TITLES[what],
    description: messageOr(err, 'Please try again.'),
  };
}

/**
 * A send's or resend's failure: the campaign send's mapping by message (frequency limit,
 * sending blocked, no contacts), else the newsletter's own title.
 */
export function sendFailureToast(what: 'send' | 'resend', err: unknown): ToastInput {
  const notice = sendErrorToast(err);
  return notice.title === 'Error' ? failureToast(what, err) : notice;
}
