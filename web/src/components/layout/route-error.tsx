import { type ComponentType, createElement, useState } from 'react';
import {
  isRouteErrorResponse,
  Link,
  type RouteObject,
  useLocation,
  useNavigate,
  useRouteError,
} from 'react-router';

/**
 * What a route shows when it fails (issue 35, item 8): each page route has its own boundary,
 * drawn inside its layout (the public navigation or the admin frame stays), with a clear message
 * and a retry. A page whose code chunk did not arrive (a network blip) is loaded again by the
 * retry, without reloading the app; anything else can be tried again or the page reloaded.
 */

type LazyRoute = NonNullable<RouteObject['lazy']>;
type LazyFunction = Extract<LazyRoute, () => unknown>;

/** A page's code chunk that failed to load; `retry` loads it again. */
export class ChunkLoadError extends Error {
  constructor(
    readonly reason: unknown,
    readonly retry: () => Promise<void>,
  ) {
    super(reason instanceof Error ? reason.message : 'The page could not be loaded');
    this.name = 'ChunkLoadError';
  }
}

/** Marks the answer of a lazy route whose chunk failed (main.tsx renders such a page afresh). */
export const FAILED_CHUNK = Symbol('failed chunk');

/** A page whose chunk failed: why, the page once loaded again, and how to load it again. */
interface FailedPage {
  reason: unknown;
  Loaded: ComponentType | null;
  retry: () => Promise<void>;
}

function RetryablePage({ page }: { page: FailedPage }) {
  if (page.Loaded) return createElement(page.Loaded);
  throw new ChunkLoadError(page.reason, page.retry);
}

/**
 * A lazy route that never fails to React Router: a failed import resolves to a page that throws
 * a ChunkLoadError into the route's boundary. React Router keeps a lazy route's first answer,
 * a rejection included, so a retry through it could never load the chunk again; this page
 * loads it itself and renders it once it has arrived.
 */
export function retryableLazy(lazy: LazyFunction): LazyFunction {
  return async () => {
    try {
      return await lazy();
    } catch (reason) {
      const page: FailedPage = {
        reason,
        Loaded: null,
        retry: async () => {
          const route = (await lazy()) as { Component?: ComponentType | null };
          page.Loaded = route.Component ?? null;
        },
      };
      return { element: createElement(RetryablePage, { page }), [FAILED_CHUNK]: true };
    }
  };
}

/**
 * The route table with a boundary on every route (its own when it has one), every lazy route
 * retryable, and a fallback for the first paint of the top-level routes while their chunks load.
 */
export function withRouteBoundaries(table: RouteObject[], top = true): RouteObject[] {
  return table.map((route) => {
    const out = { ...route } as RouteObject;
    if (typeof route.lazy === 'function') out.lazy = retryableLazy(route.lazy as LazyFunction);
    if (!route.ErrorBoundary && !route.errorElement) out.ErrorBoundary = PageError;
    if (top && !route.HydrateFallback) out.HydrateFallback = RouteLoading;
    if (route.children) out.children = withRouteBoundaries(route.children, false);
    return out as RouteObject;
  }) as RouteObject[];
}

/** The first paint of a page whose code is still on its way. */
export function RouteLoading() {
  return (
    <div className="flex min-h-screen items-center justify-center bg-navy-950 px-4">
      <p role="status" className="text-sm text-slate-400">
        Loading…
      </p>
    </div>
  );
}

const CHUNK_FAILURE =
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload/i;

/** A route's boundary: the failure, said plainly, with a way back. */
export function PageError() {
  const error = useRouteError();
  const navigate = useNavigate();
  const location = useLocation();
  const [retrying, setRetrying] = useState(false);
  const [stillFailing, setStillFailing] = useState(false);
  const chunk = error instanceof ChunkLoadError;
  // A chunk a page loads by itself (a chart, a dialog) cannot be asked again: reload the page.
  const chunkOfPage = !chunk && error instanceof Error && CHUNK_FAILURE.test(error.message);
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';

  const tryAgain = async () => {
    if (chunkOfPage) return window.location.reload();
    setRetrying(true);
    setStillFailing(false);
    try {
      if (chunk) await error.retry();
      // The same location again: the boundary resets and the page renders anew.
      await navigate(`${location.pathname}${location.search}${location.hash}`, { replace: true });
    } catch {
      setStillFailing(true);
    } finally {
      setRetrying(false);
    }
  };

  return (
    <div className="flex min-h-[50vh] items-center justify-center px-4 py-12" data-testid="page-error">
      <div role="alert" className="max-w-md rounded-2xl border border-navy-700 bg-navy-900 p-8 text-center">
        <h1 className="text-xl font-semibold text-white">
          {chunk || chunkOfPage ? 'This page could not be loaded' : 'Something went wrong on this page'}
        </h1>
        <p className="mt-2 text-sm text-slate-300">
          {chunk || chunkOfPage
            ? 'Part of the page did not arrive, most likely a network problem. Check your connection, then try again.'
            : 'The page stopped with an error. Try again; if it happens again, reload the page.'}
        </p>
        <p className="mt-2 text-xs break-words text-slate-400">{detail}</p>
        {stillFailing ? (
          <p className="mt-3 text-sm text-amber-200">
            Still not loading. Check your connection and try again.
          </p>
        ) : null}
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <button
            type="button"
            onClick={() => void tryAgain()}
            disabled={retrying}
            aria-busy={retrying}
            className="rounded-lg bg-brand px-4 py-2 text-sm font-semibold text-navy-950 hover:bg-brand-strong disabled:opacity-60"
          >
            {retrying ? 'Loading…' : chunkOfPage ? 'Reload page' : 'Try again'}
          </button>
          {chunkOfPage ? null : (
            <button
              type="button"
              onClick={() => window.location.reload()}
              className="rounded-lg border border-navy-600 px-4 py-2 text-sm text-slate-200"
            >
              Reload page
            </button>
          )}
        </div>
      </div>
    </div>
  );
}

/** Last-resort boundary of a layout: a failed layout chunk or render error shows this, not a blank page. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <main className="flex min-h-screen items-center justify-center bg-navy-950 px-4">
      <div className="max-w-md rounded-2xl border border-navy-700 bg-navy-900 p-8 text-center">
        <h1 className="text-xl font-semibold text-white">Something went wrong</h1>
        <p className="mt-2 text-sm text-slate-400">{detail}</p>
        <div className="mt-6 flex justify-center gap-3">
          <button
            type="button"
            onClick={() => window.location.reload()}
            className="rounded-lg bg-brand px-4 py-2 text-sm font-semibold text-navy-950 hover:bg-brand-strong"
          >
            Reload
          </button>
          <Link to="/" className="rounded-lg border border-navy-600 px-4 py-2 text-sm text-slate-200">
            Home
          </Link>
        </div>
      </div>
    </main>
  );
}
