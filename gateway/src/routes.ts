import { SERVICE_NAMES, type ServiceName } from '@parley/contracts';

/**
 * THE gateway route table (ARCHITECTURE §3): every path the gateway forwards, the service
 * that owns it and who may call it. Reading this file tells anyone where a request goes.
 *
 * - `path` is a find-my-way pattern (the same router Fastify and the services use), so a
 *   static segment always beats a parameter: `GET /api/blog/all` (admin) wins over
 *   `GET /api/blog/:slug` (public), and `POST /api/admin/settings/test-email` (email) is a
 *   different path from `POST /api/admin/settings` (settings).
 * - `HEAD` is answered by the `GET` entry of the same path.
 * - Unknown `/api/*` paths answer 404 JSON; every other path serves the web app.
 *
 * Access:
 * - `public`: anyone; the gateway forwards without identity.
 * - `admin`: a signed-in admin (any role); the gateway forwards a signed assertion.
 * - `super_admin`: a signed-in admin with the super_admin role.
 * - `signed-webhook`: an outside provider's callback; the owning service verifies the
 *   provider's signature, the gateway forwards it untouched (no session).
 *
 * Paths the spec does not name are chosen REST-style and marked "(chosen)".
 */

export type Access = 'public' | 'admin' | 'super_admin' | 'signed-webhook';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A per-client-IP budget enforced by the gateway (fixed window). */
export interface RateLimit {
  max: number;
  windowSeconds: number;
}

export interface RouteEntry {
  method: HttpMethod | readonly HttpMethod[];
  path: string;
  service: ServiceName;
  access: Access;
  rateLimit?: RateLimit;
  /**
   * The largest request body the gateway forwards, in bytes (default DEFAULT_BODY_LIMIT).
   * A larger one is answered 413 by the gateway before anything reaches the service.
   */
  bodyLimit?: number;
  /**
   * The upstream path when it differs from the public one (a service's own endpoint published
   * under /api). Default: the request's own path and query.
   */
  upstreamPath?: string;
  /**
   * A public write whose success changes what the service's public reads answer (a booking
   * takes a slot): a 2xx answer drops the service's edge-cached reads, as an admin's write does.
   * Other public writes never purge, so strangers cannot empty the edge cache.
   */
  purgesEdgeCache?: boolean;
  /**
   * An admin whose password must be changed may still call this route (me, logout,
   * change-password); every other admin route answers 403 until the password is changed.
   */
  allowPendingPasswordChange?: boolean;
  /**
   * A POST that only reads: its answer depends on these JSON body fields alone (the speech of
   * a line). When the upstream marks an answer with Surrogate-Control, the gateway answers
   * repeats from its edge cache, keyed by these fields (so a cache buster elsewhere in the
   * body cannot defeat it), and such a request never purges the service's cached reads.
   */
  cacheKeyFields?: readonly string[];
  /**
   * A public route whose path carries a token the owning service signed and verifies (the
   * unsubscribe link): the token is the authority, not the browser's origin, so a state change
   * is accepted whatever Origin it comes with. RFC 8058's one-click POST is sent by the mail
   * client, from the webmail's origin or `null`, never from ours.
   */
  signedTokenInPath?: true;
}

/**
 * Public routes that cost real money or work (speech synthesis, phone calls). A scripted
 * demo speaks nine lines, mostly served from the speech cache, so speech allows a few demos
 * a minute; the voice service keeps its own limits too.
 */
/** Request bodies: JSON and forms are small; uploads say how big they may be. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** Blog images: the blog service's BLOG_IMAGE_MAX_BYTES (5 MiB) plus multipart framing. */
const IMAGE_UPLOAD_LIMIT = 6 * 1024 * 1024;
/** Contact imports (CSV/Excel), streamed through to the email service. */
const IMPORT_LIMIT = 200 * 1024 * 1024;

const VOICE_PUBLIC_LIMIT: RateLimit = { max: 120, windowSeconds: 60 };
const DEMO_CALL_LIMIT: RateLimit = { max: 5, windowSeconds: 60 };

const r = (
  method: RouteEntry['method'],
  path: string,
  service: ServiceName,
  access: Access,
  extra: Pick<
    RouteEntry,
    | 'rateLimit'
    | 'allowPendingPasswordChange'
    | 'cacheKeyFields'
    | 'bodyLimit'
    | 'upstreamPath'
    | 'purgesEdgeCache'
    | 'signedTokenInPath'
  > = {},
): RouteEntry => ({ method, path, service, access, ...extra });

export const ROUTES: readonly RouteEntry[] = [
  // ── liveness of each service, through the public entry (chosen) ────────────────
  // For uptime monitors and the gateway benchmark's trivial hop: the service's own
  // /health/live ({ status, service }), never cached; 503 JSON when the service is down.
  ...SERVICE_NAMES.map((service) =>
    r('GET', `/api/health/${service}`, service, 'public', { upstreamPath: '/health/live' }),
  ),

  // ── identity: admins and sessions ───────────────────────────────────────────────
  r('POST', '/api/admin/login', 'identity', 'public'),
  r('POST', '/api/admin/logout', 'identity', 'admin', { allowPendingPasswordChange: true }),
  r('GET', '/api/admin/me', 'identity', 'admin', { allowPendingPasswordChange: true }),
  // (chosen) the login page's "signed in already?": public, always 200 (no 401 in the console).
  r('GET', '/api/admin/session', 'identity', 'public'),
  r('POST', '/api/admin/change-password', 'identity', 'admin', { allowPendingPasswordChange: true }),
  r('GET', '/api/admin/sessions/active', 'identity', 'admin'), // (chosen) dashboard's Active Sessions
  r('POST', '/api/admin/invitations/lookup', 'identity', 'public'),
  r('POST', '/api/admin/invitations/accept', 'identity', 'public'),
  r(['GET', 'POST'], '/api/admin/users', 'identity', 'super_admin'),
  r(['PATCH', 'DELETE'], '/api/admin/users/:id', 'identity', 'super_admin'),

  // ── booking: slots, bookings, contact requests ────────────────────────────────
  r('GET', '/api/bookings/available', 'booking', 'public'),
  r('GET', '/api/bookings/dates', 'booking', 'public'), // (chosen) the picker's dates and their free slots
  // A booking takes a slot: it must drop any edge-cached answer of /api/bookings/available.
  r('POST', '/api/bookings', 'booking', 'public', { purgesEdgeCache: true }),
  r('GET', '/api/bookings', 'booking', 'admin'),
  r('PATCH', '/api/bookings/:id/status', 'booking', 'admin'),
  r('POST', '/api/contact', 'booking', 'public'),
  r('GET', '/api/contact-requests', 'booking', 'admin'),

  // ── blog: posts, images, AI writing, feeds ────────────────────────────────────
  r('GET', '/api/blog', 'blog', 'public'),
  r('GET', '/api/blog/all', 'blog', 'admin'),
  r('GET', '/api/blog/:slug', 'blog', 'public'),
  r('GET', '/api/blog/images/:file', 'blog', 'public'),
  r('POST', '/api/blog', 'blog', 'admin'),
  r(['GET', 'PATCH', 'DELETE'], '/api/admin/blog/:id', 'blog', 'admin'), // GET: (chosen) editor load
  r('POST', '/api/admin/generate-blog', 'blog', 'admin'),
  r('POST', '/api/admin/upload-image', 'blog', 'admin', { bodyLimit: IMAGE_UPLOAD_LIMIT }),
  r('POST', '/api/admin/generate-image', 'blog', 'admin'),
  r('GET', '/rss.xml', 'blog', 'public'),
  r('GET', '/sitemap.xml', 'blog', 'public'),

  // ── voice: speech, calls, conversations ───────────────────────────────────────
  r('POST', '/api/voice/text-to-speech', 'voice', 'public', {
    rateLimit: VOICE_PUBLIC_LIMIT,
    cacheKeyFields: ['text', 'speaker'],
  }),
  r('POST', '/api/voice/demo-call', 'voice', 'public', { rateLimit: DEMO_CALL_LIMIT }),
  r('GET', '/api/voice/voices', 'voice', 'admin'), // (chosen) voices for test-synthesis
  r('POST', '/api/voice/test-synthesis', 'voice', 'admin'),
  r('POST', '/api/voice/call', 'voice', 'admin'),
  r('GET', '/api/voice/conversations', 'voice', 'admin'),
  r('GET', '/api/voice/overview', 'voice', 'admin'), // (chosen) live figures for the Overview tab
  r('POST', '/api/voice/twilio/status', 'voice', 'signed-webhook'),

  // ── email: contacts, address books, campaigns, newsletters, tracking ──────────
  r('GET', '/api/admin/email/contacts', 'email', 'admin'),
  r(['PATCH', 'DELETE'], '/api/admin/email/contacts/:id', 'email', 'admin'),
  r('GET', '/api/admin/email/contact-attributes', 'email', 'admin'),
  r(['GET', 'POST'], '/api/admin/email/segments', 'email', 'admin'), // (chosen: segments)
  r('POST', '/api/admin/email/segments/count', 'email', 'admin'), // (chosen)
  r(['GET', 'PUT', 'DELETE'], '/api/admin/email/segments/:id', 'email', 'admin'), // (chosen)
  r('GET', '/api/admin/email/segments/:id/count', 'email', 'admin'), // (chosen)
  r('POST', '/api/admin/contacts/:id/resubscribe', 'email', 'admin'),
  r('POST', '/api/admin/contacts/import-csv', 'email', 'admin', { bodyLimit: IMPORT_LIMIT }),
  r(['GET', 'POST'], '/api/admin/address-books', 'email', 'admin'),
  r(['PUT', 'DELETE'], '/api/admin/address-books/:id', 'email', 'admin'),
  r('GET', '/api/admin/address-books/:id/contacts', 'email', 'admin'), // (chosen)
  r(['GET', 'POST'], '/api/admin/email/campaigns', 'email', 'admin'),
  r(['GET', 'PATCH', 'DELETE'], '/api/admin/email/campaigns/:id', 'email', 'admin'), // (chosen: GET)
  r('POST', '/api/admin/email/campaigns/:id/send', 'email', 'admin'),
  r('POST', '/api/admin/email/campaigns/:id/resend', 'email', 'admin'),
  r('POST', '/api/admin/email/campaigns/:id/duplicate', 'email', 'admin'), // (chosen)
  r('POST', '/api/admin/email/campaigns/:id/pause', 'email', 'admin'), // (chosen)
  r('POST', '/api/admin/email/campaigns/:id/resume', 'email', 'admin'), // (chosen)
  r('POST', '/api/admin/email/campaigns/:id/cancel', 'email', 'admin'), // (chosen)
  r('GET', '/api/admin/email/campaigns/:id/progress', 'email', 'admin'), // (chosen) live progress
  r('GET', '/api/admin/email/campaigns/:id/recipients', 'email', 'admin'), // (chosen) per-recipient outcome
  r('GET', '/api/admin/email/campaigns/:id/delivery-log', 'email', 'admin'), // (chosen) outcome, opens, clicks per recipient
  r('GET', '/api/admin/email/campaigns/:id/delivery-log/export', 'email', 'admin'), // (chosen) the same as CSV
  r('POST', '/api/admin/email/campaigns/:id/merge-check', 'email', 'admin'), // (chosen) pre-send check of merge fields
  r('GET', '/api/admin/email/campaigns/:id/engagement-report', 'email', 'admin'),
  r('GET', '/api/admin/email/analytics', 'email', 'admin'),
  r('GET', '/api/admin/email/advanced-analytics', 'email', 'admin'),
  r('GET', '/api/admin/email/campaign-comparison', 'email', 'admin'),
  r('GET', '/api/admin/email/deliverability', 'email', 'admin'),
  r('GET', '/api/admin/email/dns-check', 'email', 'admin'),
  r('POST', '/api/admin/email/send-test', 'email', 'admin'),
  r('POST', '/api/admin/email/test-tracking', 'email', 'admin'),
  r('POST', '/api/admin/email/generate-campaign', 'email', 'admin'),
  r('POST', '/api/admin/email/optimize-content', 'email', 'admin'),
  r('POST', '/api/admin/email/import-csv', 'email', 'admin', { bodyLimit: IMPORT_LIMIT }),
  r('POST', '/api/admin/email/import-manual', 'email', 'admin'),
  r('POST', '/api/admin/email/import-preview', 'email', 'admin', { bodyLimit: IMPORT_LIMIT }), // (chosen) what an import would change
  r('POST', '/api/admin/email/import-manual/preview', 'email', 'admin'), // (chosen)
  r('GET', '/api/admin/email/outbox', 'email', 'admin'), // (chosen) local transport's stored mail
  r('GET', '/api/admin/email/outbox/:id', 'email', 'admin'), // (chosen)
  r('GET', '/api/admin/email/transport', 'email', 'admin'), // (chosen) where mail goes, what can be chosen
  r(['GET', 'POST'], '/api/admin/newsletters', 'email', 'admin'),
  r('GET', '/api/admin/newsletters/analytics', 'email', 'admin'), // (chosen) overall newsletter analytics
  r('GET', '/api/admin/newsletters/blog-posts', 'email', 'admin'), // (chosen) the email service's blog copy
  r('GET', '/api/admin/newsletters/audience', 'email', 'admin'), // (chosen) By Industry: companies and counts
  r('POST', '/api/admin/newsletters/audience/count', 'email', 'admin'), // (chosen) the will-receive count
  r(['GET', 'DELETE'], '/api/admin/newsletters/:id', 'email', 'admin'), // (chosen: GET)
  r('GET', '/api/admin/newsletters/:id/preview', 'email', 'admin'), // (chosen) rendered, sanitised
  r('POST', '/api/admin/newsletters/:id/merge-check', 'email', 'admin'), // (chosen) pre-send check of merge fields
  r('POST', '/api/admin/newsletters/:id/unschedule', 'email', 'admin'), // (chosen)
  r('POST', '/api/admin/newsletters/:id/resume', 'email', 'admin'), // (chosen) after the cooling period
  r('POST', '/api/admin/newsletters/convert-blog/:id', 'email', 'admin'),
  r('POST', '/api/admin/newsletters/:id/send', 'email', 'admin'),
  r('POST', '/api/admin/newsletters/:id/schedule', 'email', 'admin'),
  r('POST', '/api/admin/newsletters/:id/resend', 'email', 'admin'),
  r('GET', '/api/admin/newsletters/:id/analytics', 'email', 'admin'),
  r('GET', '/api/admin/newsletters/:id/engagement-report', 'email', 'admin'),
  r('POST', '/api/admin/campaigns/fix-html', 'email', 'admin'),
  r('GET', '/api/admin/address-books/:id/export', 'email', 'admin'), // (chosen) a book's contacts as CSV
  r('GET', '/api/admin/email/imports/:id', 'email', 'admin'), // (chosen) an import job's progress
  r('POST', '/api/admin/email/imports/:id/cancel', 'email', 'admin'), // (chosen)
  r('GET', '/api/admin/email/imports', 'email', 'admin'), // (chosen) running and recent imports
  r('POST', '/api/email/ses/notifications', 'email', 'signed-webhook'), // (chosen) SES bounces via SNS
  r('POST', '/api/admin/settings/test-email', 'email', 'admin'),
  r('GET', '/api/track/open/:trackingId', 'email', 'public'), // (chosen) open pixel
  r('GET', '/api/track/click/:trackingId', 'email', 'public'), // (chosen) click redirect
  // (chosen) GET shows the page, POST is RFC 8058 one-click (List-Unsubscribe-Post), sent by
  // mail clients from their own origin: the signed token authorises it, not the Origin.
  r(['GET', 'POST'], '/api/unsubscribe/:token', 'email', 'public', { signedTokenInPath: true }),

  // ── settings: settings, brand, diagnostics, feature discovery ─────────────────
  r(['GET', 'POST'], '/api/admin/settings', 'settings', 'admin'),
  r('POST', '/api/admin/brand/crawl', 'settings', 'admin'),
  r('GET', '/api/admin/brand/settings', 'settings', 'admin'),
  r('POST', '/api/admin/diagnostics/:testId', 'settings', 'admin'),
  r('GET', '/api/admin/feature-recommendations', 'settings', 'admin'),
  r('GET', '/api/admin/feature-insights', 'settings', 'admin'),
  r('GET', '/api/admin/settings/status', 'settings', 'admin'), // (chosen) General tab: platform status
  r('GET', '/api/admin/diagnostics/dead-letters', 'settings', 'admin'), // (chosen) every service's
  r('POST', '/api/admin/diagnostics/dead-letters/replay', 'settings', 'admin'), // (chosen)
];

/** The methods of an entry as an array. */
export const methodsOf = (entry: RouteEntry): readonly HttpMethod[] =>
  typeof entry.method === 'string' ? [entry.method] : entry.method;

/**
 * The gateway's own API routes: answered by the gateway itself, never forwarded. The API
 * description and its interactive docs are for signed-in admins (any role) unless
 * API_DOCS_PUBLIC is set (docs/adr/0021-api-docs-admin-only-by-default.md); `/api/docs` is the Scalar page,
 * whose
 * bundle it serves under `/api/docs/`.
 */
export interface GatewayRoute {
  method: 'GET';
  path: string;
  /** Access when API_DOCS_PUBLIC is unset; `public` when it is true. */
  access: 'admin';
  /** What it answers, for the API description. */
  summary: string;
  contentType: 'application/json' | 'text/html';
}

export const OPENAPI_PATH = '/api/openapi.json';
export const API_DOCS_PATH = '/api/docs';

export const GATEWAY_ROUTES: readonly GatewayRoute[] = [
  {
    method: 'GET',
    path: OPENAPI_PATH,
    access: 'admin',
    summary: 'This API description (OpenAPI 3.1), merged from the route table and every service',
    contentType: 'application/json',
  },
  {
    method: 'GET',
    path: API_DOCS_PATH,
    access: 'admin',
    summary: 'Interactive API docs (Scalar) of this description',
    contentType: 'text/html',
  },
];

/** The access of one of the gateway's own routes under the configuration. */
export const gatewayRouteAccess = (docsPublic: boolean | undefined): 'admin' | 'public' =>
  docsPublic ? 'public' : 'admin';
