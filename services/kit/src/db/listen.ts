import pg from 'pg';

type Log = {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
};

export interface ListenOptions {
  /** Where to connect: a connection string, or client settings (a pool's `options` work). */
  connection: string | pg.ClientConfig;
  /** Channels to LISTEN on. */
  channels: string[];
  onNotification(channel: string, payload: string | undefined): void;
  /**
   * Called each time the LISTEN is in place, the first time and after every reconnect.
   * Notifications sent while the connection was away are lost: a cache drops its copies here.
   */
  onListening?(): void;
  /** Called when an established LISTEN connection is lost (before reconnecting). */
  onLost?(err: Error): void;
  logger?: Log;
  /** Reconnect delay: `initialMs` doubling to `maxMs`, with jitter (default 250 ms to 30 s). */
  retry?: { initialMs?: number; maxMs?: number };
  /**
   * A connection can die without an error (a half-open TCP connection after a network
   * failover): every `everyMs` the listener runs `SELECT 1` and reconnects when it does not
   * answer within `timeoutMs` (default every 30 s, 10 s).
   */
  ping?: { everyMs?: number; timeoutMs?: number };
}

export interface Listener {
  /** True while the LISTEN is in place. */
  readonly listening: boolean;
  /** Failed connection attempts since the LISTEN was last in place. */
  readonly failures: number;
  /** Resolves true once listening (at once if it is); false after `timeoutMs` if given, or on stop. */
  ready(timeoutMs?: number): Promise<boolean>;
  /** Stops listening and reconnecting. */
  stop(): Promise<void>;
}

/**
 * LISTEN on PostgreSQL channels for as long as the process runs: one dedicated connection,
 * re-established after any loss (an error, the server closing it, a restart, a failover, a
 * ping that goes unanswered) with capped exponential backoff and jitter, retrying forever
 * until `stop()`. Each time the LISTEN is back, `onListening` lets the caller make up for the
 * notifications it may have missed.
 */
export function listen(opts: ListenOptions): Listener {
  const initialMs = opts.retry?.initialMs ?? 250;
  const maxMs = opts.retry?.maxMs ?? 30_000;
  const pingEveryMs = opts.ping?.everyMs ?? 30_000;
  const pingTimeoutMs = opts.ping?.timeoutMs ?? 10_000;
  const config: pg.ClientConfig =
    typeof opts.connection === 'string' ? { connectionString: opts.connection } : { ...opts.connection };
  const channels = opts.channels.map((c) => `"${c.replaceAll('"', '""')}"`);

  let current: pg.Client | null = null;
  let stopped = false;
  let failures = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let pingTimer: NodeJS.Timeout | undefined;
  let waiters: Array<(listening: boolean) => void> = [];

  const delay = () => {
    const base = Math.min(maxMs, initialMs * 2 ** Math.min(failures - 1, 30));
    return Math.round(base / 2 + (Math.random() * base) / 2);
  };

  function scheduleConnect(): void {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, delay());
    retryTimer.unref();
  }

  /** Drops `client` (if it is still the current one) and reconnects. */
  function lose(client: pg.Client, err: Error): void {
    if (current !== client) return;
    current = null;
    clearInterval(pingTimer);
    client.end().catch(() => {});
    if (stopped) return;
    opts.logger?.warn({ err, channels: opts.channels }, 'LISTEN connection lost; reconnecting');
    opts.onLost?.(err);
    failures = Math.max(failures, 1);
    scheduleConnect();
  }

  async function connect(): Promise<void> {
    if (stopped) return;
    const client = new pg.Client({ keepAlive: true, connectionTimeoutMillis: 10_000, ...config });
    // Errors after connect go through lose(); before, the attempt's catch handles them.
    client.on('error', (err) => lose(client, err));
    client.on('end', () => lose(client, new Error('LISTEN connection closed')));
    client.on('notification', (msg) => {
      if (current === client) opts.onNotification(msg.channel, msg.payload);
    });
    try {
      await client.connect();
      for (const channel of channels) await client.query(`LISTEN ${channel}`);
    } catch (err) {
      client.end().catch(() => {});
      failures++;
      opts.logger?.warn(
        { err, channels: opts.channels, failures },
        'LISTEN connection failed; retrying with backoff',
      );
      scheduleConnect();
      return;
    }
    if (stopped) {
      await client.end().catch(() => {});
      return;
    }
    current = client;
    if (failures) opts.logger?.info({ channels: opts.channels, failures }, 'LISTEN connection restored');
    failures = 0;
    pingTimer = setInterval(() => void ping(client), pingEveryMs);
    pingTimer.unref();
    opts.onListening?.();
    for (const resolve of waiters.splice(0)) resolve(true);
  }

  async function ping(client: pg.Client): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer to a ping within ${pingTimeoutMs} ms`)),
            pingTimeoutMs,
          );
        }),
      ]);
    } catch (err) {
      lose(client, err as Error);
    } finally {
      clearTimeout(timer);
    }
  }

  void connect();

  return {
    get listening() {
      return current !== null;
    },
    get failures() {
      return failures;
    },
    ready(timeoutMs) {
      if (current) return Promise.resolve(true);
      if (stopped) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const done = (listening: boolean) => {
          clearTimeout(timer);
          resolve(listening);
        };
        const timer =
          timeoutMs === undefined
            ? undefined
            : setTimeout(() => {
                waiters = waiters.filter((w) => w !== done);
                resolve(false);
              }, timeoutMs);
        waiters.push(done);
      });
    },
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      clearInterval(pingTimer);
      for (const resolve of waiters.splice(0)) resolve(false);
      const client = current;
      current = null;
      await client?.end().catch(() => {});
    },
  };
}
