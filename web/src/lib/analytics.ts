/**
 * Analytics (spec §1: events go to a third-party analytics service *when one is present*).
 *
 * Google Analytics 4 is that service when the gateway is configured with GA_MEASUREMENT_ID: it
 * puts the id in `<meta name="parley-ga-id">`, and the first call here loads gtag.js (the CSP
 * allows it only then) and reports page views and events through it. Without an id nothing is
 * loaded and nothing leaves the browser: events are only appended to the page's in-memory
 * `window.dataLayer` (which tag managers read, and the browser tests inspect).
 */

export interface AnalyticsParams {
  /** Group of the event (spec: every event carries a category, a label and an optional value). */
  category?: string;
  label?: string;
  value?: number;
  [key: string]: string | number | boolean | undefined;
}

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

let measurementId: string | null | undefined;

/** The configured GA4 id, after loading gtag.js once; null when analytics is not configured. */
function ga(): string | null {
  if (measurementId !== undefined) return measurementId;
  measurementId =
    document
      .querySelector<HTMLMetaElement>('meta[name="parley-ga-id"]')
      ?.content.match(/^G-[A-Z0-9]+$/)?.[0] ?? null;
  if (!measurementId) return null;
  window.dataLayer ??= [];
  // gtag's documented shim: it queues its `arguments` object until gtag.js has loaded.
  window.gtag = function gtag() {
    // biome-ignore lint/complexity/noArguments: gtag.js reads the Arguments object, not an array.
    window.dataLayer?.push(arguments);
  };
  window.gtag('js', new Date());
  // Page views are sent by trackPageView on every route change, not by gtag on load.
  window.gtag('config', measurementId, { send_page_view: false });
  const script = document.createElement('script');
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;
  document.head.appendChild(script);
  return measurementId;
}

export function trackEvent(name: string, params: AnalyticsParams = {}): void {
  if (typeof window === 'undefined') return;
  try {
    if (ga()) {
      window.gtag?.('event', name, params);
    } else {
      window.dataLayer ??= [];
      window.dataLayer.push({ event: name, ...params });
    }
  } catch {
    // A broken third-party tag must never break the action that reported the event.
  }
}

let lastPath: string | null = null;

/** A page view with its path (spec: on every route change); repeated calls for one path count once. */
export function trackPageView(path: string): void {
  if (path === lastPath) return;
  lastPath = path;
  trackEvent('page_view', {
    category: 'navigation',
    label: path,
    page_path: path,
    page_location: window.location.href,
  });
}
