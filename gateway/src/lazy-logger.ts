import type { FastifyBaseLogger } from 'fastify';

type Bindings = Record<string, unknown>;
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger, made only when something logs. Fastify gives every request a pino
 * child (bindings: its id), and a proxied request almost never logs: building that child
 * (and its redaction setup) was a measurable share of the gateway's time per request.
 */
export class LazyChildLogger {
  private real: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly opts: Bindings,
  ) {}

  private log(level: Level, args: unknown[]): void {
    this.real ??= this.parent.child(this.bindings, this.opts);
    (this.real[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return (this.opts.level as string | undefined) ?? this.parent.level;
  }

  fatal(...args: unknown[]) {
    this.log('fatal', args);
  }
  error(...args: unknown[]) {
    this.log('error', args);
  }
  warn(...args: unknown[]) {
    this.log('warn', args);
  }
  info(...args: unknown[]) {
    this.log('info', args);
  }
  debug(...args: unknown[]) {
    this.log('debug', args);
  }
  trace(...args: unknown[]) {
    this.log('trace', args);
  }
  silent() {}

  child(bindings: Bindings, opts?: Bindings): FastifyBaseLogger {
    this.real ??= this.parent.child(this.bindings, this.opts);
    return this.real.child(bindings, opts);
  }
}
