import { PRERENDER_ORIGIN_PLACEHOLDER } from '@parley/contracts/web';

/**
 * Where absolute URLs (canonical, Open Graph) point. In the browser, the page's own origin;
 * in the build-time prerenderer, a placeholder the gateway replaces per request with the
 * public origin (PUBLIC_ORIGIN, else the address the visitor asked for), so both agree.
 */
export function siteOrigin(): string {
  return typeof window === 'undefined' ? PRERENDER_ORIGIN_PLACEHOLDER : window.location.origin;
}
