import { QueryClient, type QueryFunction } from '@tanstack/react-query';

/**
 * The data layer shared by every screen (spec §7 "Shared conventions"):
 * every request carries credentials, bodies are JSON, every read is a GET to the path
 * held in the query key, and any non-OK response throws an {@link ApiError}.
 */

/**
 * A non-OK answer: its status, and its body (the parsed `{ error, message }` JSON when it is
 * JSON, else the text). The message stays the spec's `"{status}: {body}"` (spec §8).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly text: string,
  ) {
    super(`${status}: ${text}`);
    this.name = 'ApiError';
  }

  /** The `error` category of a JSON error body (e.g. 'Password Change Required'). */
  get category(): string | undefined {
    const error = (this.body as { error?: unknown } | null)?.error;
    return typeof error === 'string' ? error : undefined;
  }
}

/** The ApiError of a non-OK answer's status and text (the status text when the body is empty). */
export function apiErrorFrom(status: number, text: string): ApiError {
  let body: unknown = text;
  if (text.trimStart().startsWith('{')) {
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON after all: the text is the body
    }
  }
  return new ApiError(status, body, text);
}

/** The ApiError of a non-OK response (reads its body). */
export async function apiErrorOf(res: Response): Promise<ApiError> {
  return apiErrorFrom(res.status, (await res.text().catch(() => '')) || res.statusText);
}

/** The ApiError of a non-OK upload (uploads use XMLHttpRequest for their progress). */
export function apiErrorOfXhr(xhr: XMLHttpRequest): ApiError {
  return apiErrorFrom(xhr.status, xhr.responseText || xhr.statusText);
}

async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) throw await apiErrorOf(res);
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
 * The human part of an error, for toasts: an ApiError's JSON `message` (or `error`), or its
 * text when that is readable; another error's message. `undefined` when there is nothing
 * better than the caller's own fallback (an HTML error page, an empty reason).
 */
export function errorMessage(err: unknown): string | undefined {
  if (err instanceof ApiError) {
    const { body } = err;
    if (body && typeof body === 'object') {
      const { message, error } = body as { message?: unknown; error?: unknown };
      if (typeof message === 'string' && message) return message;
      if (typeof error === 'string' && error) return error;
      return undefined;
    }
    const text = err.text.trim();
    return !text || text.startsWith('<') ? undefined : text;
  }
  return err instanceof Error && err.message ? err.message : undefined;
}

/** The HTTP status of an error thrown by the data layer, if it carries one. */
export function errorStatus(err: unknown): number | undefined {
  return err instanceof ApiError ? err.status : undefined;
}
