import { createHash } from 'node:crypto';
import pg from 'pg';

export interface CachedBody {
  body: string;
  etag: string;
  headers: Record<string, string>;
}

/**
 * Rendered public answers (post lists, posts, feeds), kept until content changes. Every
 * write to blog_posts NOTIFYs `parley_blog_changed` (a trigger in the migration), which
 * every replica LISTENs to, so all of them drop their copies at commit; a TTL bounds
 * staleness if a notification is ever missed (and lets scheduled posts appear).
 */
export class PublicCache {
  private entries = new Map<string, CachedBody & { until: number }>();
  private version = 0;
  private listener: pg.Client | null = null;
  private stopped = false;

  constructor(private readonly opts: { pool: pg.Pool; ttlMs?: number; maxEntries?: number }) {}

  async start(): Promise<void> {
    const client = new pg.Client(this.opts.pool.options);
    client.on('error', () => {
      if (this.listener === client) this.listener = null;
      this.invalidate();
      if (!this.stopped) setTimeout(() => void this.start().catch(() => {}), 1000).unref();
    });
    await client.connect();
    client.on('notification', () => this.invalidate());
    await client.query('LISTEN parley_blog_changed');
    this.listener = client;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.listener?.end().catch(() => {});
    this.listener = null;
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
    // A write committed meanwhile: answer, but do not keep what may predate it.
    if (version === this.version) {
      if (this.entries.size >= (this.opts.maxEntries ?? 2000)) this.entries.clear();
      this.entries.set(key, entry);
    }
    return entry;
  }
}
