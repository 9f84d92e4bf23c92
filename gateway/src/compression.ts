import { promisify } from 'node:util';
import {
  type BrotliCompress,
  type BrotliOptions,
  brotliCompress,
  constants,
  createBrotliCompress,
  createGzip,
  type Gzip,
  gzip,
} from 'node:zlib';

/**
 * Compression of proxied answers, off the event loop. @fastify/compress (still used for the
 * web app's own files) compresses a buffered answer synchronously: a 1 MB JSON answer then
 * stalls every request in flight. Here a buffered answer is compressed on libuv's thread pool,
 * a streamed one through a zlib stream, and an edge-cached answer once per encoding.
 */

export type Encoding = 'br' | 'gzip';

/** Answers smaller than this are sent as they are (the headers would outweigh the gain). */
export const COMPRESS_THRESHOLD = 1024;

/** Text, JSON, XML, JavaScript and SVG: what compresses; images, audio and archives do not. */
const COMPRESSIBLE =
  /^(?:text\/(?!event-stream)|application\/(?:[\w.+-]+\+)?(?:json|xml)\b|application\/(?:javascript|x-ndjson)\b|image\/svg\+xml\b)/i;

const BROTLI: BrotliOptions = {
  // Quality 4: most of brotli's gain at a fraction of its default (11) cost.
  params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};
const brotli = promisify(brotliCompress) as (body: Buffer, opts: BrotliOptions) => Promise<Buffer>;
const gzipAsync = promisify(gzip) as (body: Buffer) => Promise<Buffer>;

/** The encoding to answer with for an Accept-Encoding header (brotli first), or none. */
export function negotiate(accept: string | string[] | undefined): Encoding | undefined {
  if (!accept) return undefined;
  const value = Array.isArray(accept) ? accept.join(',') : accept;
  let br = false;
  let gz = false;
  for (const part of value.split(',')) {
    const [token = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.find((p) => p.trim().startsWith('q='));
    if (q && Number(q.trim().slice(2)) === 0) continue;
    if (token === 'br') br = true;
    else if (token === 'gzip' || token === 'x-gzip') gz = true;
    else if (token === '*') {
      br = true;
      gz = true;
    }
  }
  return br ? 'br' : gz ? 'gzip' : undefined;
}

/** Whether an answer with these headers should be compressed (when large enough). */
export function compressible(
  status: number,
  contentType: string | string[] | undefined,
  contentEncoding: string | string[] | undefined,
  cacheControl: string | string[] | undefined,
): boolean {
  if (status === 204 || status === 206 || status === 304) return false;
  if (contentEncoding !== undefined && contentEncoding !== 'identity') return false;
  if (typeof cacheControl === 'string' && cacheControl.includes('no-transform')) return false;
  return typeof contentType === 'string' && COMPRESSIBLE.test(contentType);
}

/** Compresses a whole answer on the thread pool. */
export function compressBody(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br' ? brotli(body, BROTLI) : gzipAsync(body);
}

/** A compressing stream for an answer that is streamed. */
export function compressStream(encoding: Encoding): BrotliCompress | Gzip {
  return encoding === 'br' ? createBrotliCompress(BROTLI) : createGzip();
}

/** Adds `accept-encoding` to a Vary header value. */
export function varyOnEncoding(vary: string | string[] | number | undefined): string {
  if (vary === undefined || vary === '') return 'accept-encoding';
  const v = String(vary);
  if (v === '*' || /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(v)) return v;
  return `${v}, accept-encoding`;
}
