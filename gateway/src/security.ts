import { createHash } from 'node:crypto';

export const GTAG_ORIGIN = 'https://www.googletagmanager.com';

/**
 * Content-Security-Policy of the web app. Scripts only from our origin (the bundle has
 * no inline script); inline styles are allowed because React and Radix set style
 * attributes; audio from blobs (synthesised speech); images from anywhere over https
 * (blog images may be hosted elsewhere).
 */
export function contentSecurityPolicy(opts: { analytics?: boolean } = {}): string {
  // Google Analytics 4, only when a measurement id is configured: gtag.js and its beacons.
  const scripts = opts.analytics ? [GTAG_ORIGIN] : [];
  const connect = opts.analytics
    ? [GTAG_ORIGIN, 'https://*.google-analytics.com', 'https://*.analytics.google.com']
    : [];
  return [
    "default-src 'self'",
    `script-src ${["'self'", ...scripts].join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${["'self'", ...connect].join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers every gateway answer carries (the CSP is added to HTML documents only). */
export function securityHeaders(opts: { https: boolean }): ReadonlyArray<readonly [string, string]> {
  return [
    ['x-content-type-options', 'nosniff'],
    ['referrer-policy', 'strict-origin-when-cross-origin'],
    ['x-frame-options', 'DENY'],
    ['cross-origin-opener-policy', 'same-origin'],
    // The voice-wave demo may ask for the microphone; nothing else needs device access.
    ['permissions-policy', 'microphone=(self), camera=(), geolocation=(), payment=()'],
    ...(opts.https ? [['strict-transport-security', 'max-age=31536000; includeSubDomains'] as const] : []),
  ];
}

/** The SHA-256 CSP source of each inline script of an HTML page. */
function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    hashes.push(
      `'sha256-${createHash('sha256')
        .update(m[1] ?? '')
        .digest('base64')}'`,
    );
  }
  return hashes;
}

/**
 * The CSP of the API docs page (/api/docs, Scalar) only: the site's policy, plus exactly the
 * page's own inline scripts (by hash: the bundle comes from our origin and is started by one
 * inline call). Scalar injects its stylesheet at run time (style-src already allows inline
 * styles); its fonts and anything else outside our origin stay blocked.
 */
export function apiDocsContentSecurityPolicy(html: string): string {
  return contentSecurityPolicy().replace(
    "script-src 'self'",
    ["script-src 'self'", ...inlineScriptHashes(html)].join(' '),
  );
}
