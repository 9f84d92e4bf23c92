/**
 * The gateway's micro-cache for public reads (what a CDN does at the edge). An upstream
 * opts a response in with `Surrogate-Control: max-age=N` (the header is never passed to
 * clients); the gateway then answers that URL (or, for a read-only POST, the route's key
 * fields of the body) from memory for N seconds, with 304s for matching ETags. Any write
 * forwarded to the same service drops that service's entries, so an author sees their change
 * at once; other gateway replicas follow within N seconds.
 */

export interface EdgeEntry {
  service: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  etag: string | undefined;
  until: number;
  /** The body compressed, per encoding, made on the first hit that asks for it. */
  variants: Partial<Record<'br' | 'gzip', Buffer>>;
}

const MAX_TTL_S = 60;
/** The largest answer kept (larger ones stream through uncached). */
export const MAX_EDGE_BODY = 1024 * 1024;

/** Seconds of `max-age` in a Surrogate-Control value, or 0. */
export function surrogateMaxAge(value: string | string[] | undefined): number {
  const v = Array.isArray(value) ? value.join(',') : (value ?? '');
  const m = /(?:^|,)\s*max-age=(\d+)/i.exec(v);
  return m ? Math.min(Number(m[1]), MAX_TTL_S) : 0;
}

/**
 * The edge-cache key of a read-only POST (RouteEntry.cacheKeyFields): the route and the
 * named fields of its JSON body, nothing else. Undefined when the body is not a JSON object
 * (the service answers that with its own 400, uncached).
 */
export function bodyCacheKey(path: string, fields: readonly string[], body: Buffer): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const values = fields.map((f) => (parsed as Record<string, unknown>)[f] ?? null);
  // GET entries are keyed by their URL, which starts with '/': no collision.
  return `POST ${path}\n${JSON.stringify(values)}`;
}

export class EdgeCache {
  private readonly entries = new Map<string, EdgeEntry>();
  private bytes = 0;

  constructor(
    private readonly maxBytes = 32 * 1024 * 1024,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): EdgeEntry | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.until <= this.now()) {
      this.delete(key);
      return undefined;
    }
    return e;
  }

  /** Keeps an answer for `ttlSeconds`; returns the kept entry (undefined when not kept). */
  set(key: string, entry: Omit<EdgeEntry, 'until' | 'variants'>, ttlSeconds: number): EdgeEntry | undefined {
    if (ttlSeconds <= 0 || entry.body.length > MAX_EDGE_BODY) return undefined;
    this.delete(key);
    while (this.bytes + entry.body.length > this.maxBytes && this.entries.size) {
      this.delete(this.entries.keys().next().value as string);
    }
    const kept: EdgeEntry = { ...entry, until: this.now() + ttlSeconds * 1000, variants: {} };
    this.entries.set(key, kept);
    this.bytes += entry.body.length;
    return kept;
  }

  /** Keeps a compressed copy of an entry's body (if the entry is still held). */
  addVariant(key: string, entry: EdgeEntry, encoding: 'br' | 'gzip', body: Buffer): void {
    if (this.entries.get(key) !== entry || entry.variants[encoding]) return;
    entry.variants[encoding] = body;
    this.bytes += body.length;
  }

  /** Drops every entry of a service (a write went to it). */
  purge(service: string): void {
    for (const [key, e] of this.entries) if (e.service === service) this.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: string) {
    const e = this.entries.get(key);
    if (!e) return;
    this.bytes -= e.body.length + (e.variants.br?.length ?? 0) + (e.variants.gzip?.length ?? 0);
    this.entries.delete(key);
  }
}
