import { createHash } from 'node:crypto';
import { type Listener, type ListenOptions, listen } from '@parley/kit/db/listen';
import type pg from 'pg';

export interface CachedBody {
  body: string;
  etag: string;
  headers: Record<string, string>;
}

/**
 * Rendered public answers (post lists, posts, feeds), kept until content changes. Every
 * write to blog_posts NOTIFYs `parley_blog_changed` (a trigger in the migration), which
 * every replica LISTENs to (the kit's listen helper: it reconnects with backoff for as long
 * as the service runs), so all of them drop their copies at commit; a TTL bounds staleness
 * if a notification is ever missed (and lets scheduled posts appear). While the LISTEN
 * connection is down, nothing is kept (a change could not be heard) and each answer is
 * computed afresh; when it is back, the copies made before are dropped.
 */
export class PublicCache {
  private entries = new Map<string, CachedBody & { until: number }>();
  private version = 0;
  private listener: Listener | null = null;

  constructor(
    private readonly opts: {
      pool: pg.Pool;
      ttlMs?: number;
      maxEntries?: number;
      logger?: ListenOptions['logger'];
      /** Reconnect backoff of the LISTEN connection (tests shorten it). */
      retry?: ListenOptions['retry'];
    },
  ) {}

  /** Starts listening; waits (a few seconds at most) for the first LISTEN. */
  async start(): Promise<void> {
    this.listener ??= listen({
      connection: this.opts.pool.options,
      channels: ['parley_blog_changed'],
      onNotification: () => this.invalidate(),
      onListening: () => this.invalidate(),
      onLost: () => this.invalidate(),
      logger: this.opts.logger,
      retry: this.opts.retry,
    });
    await this.listener.ready(5000);
  }

  async stop(): Promise<void> {
    await this.listener?.stop();
    this.listener = null;
  }

  /** True while changes are heard (the LISTEN connection is up), so copies may be kept. */
  get listening(): boolean {
    return this.listener?.listening ?? false;
  }

  invalidate(): void {
    this.version++;
    this.entries.clear();
  }

  /** The cached answer for `key`, computing (and caching) it when absent or stale. */
  async get(
    key: string,
    compute: () => Promise<{ body: string; headers?: Record<string, string> }>,
  ): Promise<CachedBody> {
    const hit = this.entries.get(key);
    if (hit && hit.until > Date.now()) return hit;
    const version = this.version;
    const { body, headers = {} } = await compute();
    const entry = {
      body,
      headers,
      etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
      until: Date.now() + (this.opts.ttlMs ?? 60_000),
    };
    // A write committed meanwhile: answer, but do not keep what may predate it. Nor keep
    // anything while changes cannot be heard.
    if (version === this.version && this.listening) {
      if (this.entries.size >= (this.opts.maxEntries ?? 2000)) this.entries.clear();
      this.entries.set(key, entry);
    }
    return entry;
  }
}
