import { QueryClient, type QueryFunction } from '@tanstack/react-query';

/**
 * The data layer shared by every screen (spec §7 "Shared conventions"):
 * every request carries credentials, bodies are JSON, every read is a GET to the path
 * held in the query key, and any non-OK response throws `Error("{status}: {body}")`.
 */

/** Throws `Error("{status}: {body text or statusText}")` for a non-OK response (spec §8). */
async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text().catch(() => '')) || res.statusText;
  throw new Error(`${res.status}: ${text}`);
}

/** Sends a request with an optional JSON body and credentials; throws on a non-OK response. */
export async function apiRequest(method: string, url: string, body?: unknown): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: body !== undefined ? { 'Content-Type': 'application/json' } : {},
    body: body !== undefined ? JSON.stringify(body) : undefined,
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * The default read: GET the query key joined with '/' as the path, parse JSON.
 * By default a 401 fails the read; the `returnNull` variant resolves to null instead.
 */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include', signal });
    if (options.on401 === 'returnNull' && res.status === 401) return null as T;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/**
 * The app's query client. `server: true` is the prerenderer's: its queries never start the
 * garbage-collection timers a browser needs (gcTime Infinity), so a build process exits as
 * soon as its pages are written instead of waiting out the 5-minute gcTime.
 */
export function createQueryClient(opts: { server?: boolean } = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Number.POSITIVE_INFINITY,
        gcTime: opts.server ? Number.POSITIVE_INFINITY : 5 * 60 * 1000,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}

export const queryClient = createQueryClient();

/**
 * The human part of an error thrown by the data layer, for toasts: the `message` of a
 * `{ error, message }` JSON body after "{status}: " when present, else the body text.
 * Returns `undefined` when there is nothing better than the caller's own fallback.
 */
export function errorMessage(err: unknown): string | undefined {
  if (!(err instanceof Error) || !err.message) return undefined;
  const m = /^(\d{3}): ([\s\S]*)$/.exec(err.message);
  if (!m) return err.message;
  const rest = (m[2] ?? '').trim();
  if (rest.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(rest);
      if (parsed && typeof parsed === 'object') {
        const { message, error } = parsed as { message?: unknown; error?: unknown };
        if (typeof message === 'string' && message) return message;
        if (typeof error === 'string' && error) return error;
      }
      return undefined;
    } catch {
      // not JSON after all: fall through to the raw text
    }
  }
  // An HTML error page or an empty reason is no use to a visitor.
  if (!rest || rest.startsWith('<')) return undefined;
  return rest;
}

/** The HTTP status of an error thrown by the data layer, if it carries one. */
export function errorStatus(err: unknown): number | undefined {
  if (!(err instanceof Error)) return undefined;
  const m = /^(\d{3}): /.exec(err.message);
  return m ? Number(m[1]) : undefined;
}
