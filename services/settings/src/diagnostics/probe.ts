import {
  type DeadLetterItem,
  type DeadLettersResponse,
  type DiagnosticResult,
  type DiagnosticRunResponse,
  type DiagnosticTestId,
  deadLettersSubject,
  diagnosticsSubject,
  type PlatformStatus,
  SERVICE_NAMES,
  type ServiceCheck,
  type ServiceName,
} from '@parley/contracts';
import { BusUnavailableError, type EventBus } from '@parley/kit';

/**
 * Asks the services about themselves over request/reply (diagnosticsSubject and
 * deadLettersSubject; the in-process bus answers the same way). Every question has a
 * deadline: a service that does not answer in time is reported by name, never waited for.
 */

export type Answer<T> =
  | { ok: true; value: T; roundTripMs: number }
  | { ok: false; kind: 'not_running' | 'timeout' | 'refused'; message: string; roundTripMs: number };

export class PlatformProbe {
  constructor(
    private readonly bus: EventBus,
    private readonly timeoutMs: number,
  ) {}

  /** One request with a hard deadline; what went wrong is said in words that name the service. */
  async ask<T>(service: ServiceName, subject: string, payload: unknown): Promise<Answer<T>> {
    const t0 = performance.now();
    const ms = () => Math.round(performance.now() - t0);
    let timer: NodeJS.Timeout | undefined;
    try {
      const value = await Promise.race([
        this.bus.request(subject, payload, { timeoutMs: this.timeoutMs }),
        // The bus has its own timeout; this one guarantees the answer even if it did not fire.
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new BusUnavailableError(`no answer on ${subject}: timed out`)),
            this.timeoutMs + 250,
          );
        }),
      ]);
      return { ok: true, value: value as T, roundTripMs: ms() };
    } catch (err) {
      const message = (err as Error).message ?? String(err);
      const seconds = `${(this.timeoutMs / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} s`;
      if (err instanceof BusUnavailableError || /no responders|nobody responds|503/i.test(message)) {
        const timedOut = /time(d)? ?out/i.test(message);
        return {
          ok: false,
          kind: timedOut ? 'timeout' : 'not_running',
          message: timedOut
            ? `The ${service} service did not answer within ${seconds}`
            : `The ${service} service is not running`,
          roundTripMs: ms(),
        };
      }
      return { ok: false, kind: 'refused', message, roundTripMs: ms() };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs `check` of one service; a missing or silent service is an error result naming it. */
  async check(service: ServiceName, check: string): Promise<ServiceCheck & { roundTripMs: number }> {
    const answer = await this.ask<DiagnosticResult>(service, diagnosticsSubject(service), { check });
    if (answer.ok) return { service, ...answer.value, roundTripMs: answer.roundTripMs };
    const noCheck = answer.kind === 'refused' && /has no check named/.test(answer.message);
    return {
      service,
      status: 'error',
      result: answer.kind === 'refused' ? (noCheck ? 'Not available' : 'Check failed') : 'Not running',
      details: noCheck
        ? `The ${service} service does not offer the ${check} check yet`
        : answer.kind === 'refused'
          ? `${service}: ${answer.message}`
          : answer.message,
      duration: answer.roundTripMs,
      roundTripMs: answer.roundTripMs,
    };
  }

  /** Spec §7's diagnostics; null for an unknown test id. */
  async runTest(testId: string): Promise<DiagnosticRunResponse | null> {
    const t0 = performance.now();
    const done = (r: Omit<DiagnosticRunResponse, 'duration'>): DiagnosticRunResponse => ({
      ...r,
      duration: Math.round(performance.now() - t0),
    });
    const single = async (service: ServiceName, check: string) => {
      const c = await this.check(service, check);
      const { roundTripMs: _, ...part } = c;
      return done({ status: c.status, result: c.result, details: c.details, checks: [part] });
    };
    switch (testId as DiagnosticTestId) {
      case 'database-connection': {
        const all = await Promise.all(SERVICE_NAMES.map((s) => this.check(s, 'database')));
        const bad = all.filter((c) => c.status !== 'success');
        const details = all
          .map((c) =>
            c.status === 'success' ? `${c.service} ${c.duration} ms` : `${c.service}: ${c.details}`,
          )
          .join(' · ');
        return done({
          status: bad.length ? 'error' : 'success',
          result: bad.length
            ? `${bad.length} of ${all.length} databases unreachable`
            : `All ${all.length} databases connected`,
          details,
          checks: all.map(({ roundTripMs: _, ...c }) => c),
        });
      }
      case 'api-endpoints': {
        // Readiness = the service answers and its database does (the kit's /health/ready).
        const all = await Promise.all(SERVICE_NAMES.map((s) => this.check(s, 'database')));
        const parts: ServiceCheck[] = all.map((c) => ({
          service: c.service,
          status: c.status,
          result: c.status === 'success' ? 'Ready' : c.result === 'Not running' ? 'Not running' : 'Not ready',
          details:
            c.status === 'success'
              ? `${c.service} answered in ${c.roundTripMs} ms`
              : `${c.service}: ${c.details}`,
          duration: c.roundTripMs,
        }));
        const bad = parts.filter((p) => p.status !== 'success');
        return done({
          status: bad.length ? 'error' : 'success',
          result: bad.length
            ? `${bad.length} of ${parts.length} services not answering`
            : `All ${parts.length} services answering`,
          details: parts
            .map((p) => (p.status === 'success' ? p.details : `${p.service}: ${p.result}`))
            .join(' · '),
          checks: parts,
        });
      }
      case 'email-smtp':
        return single('email', 'email-smtp');
      case 'voice-api':
        return single('voice', 'voice-api');
      case 'twilio-integration':
        return single('voice', 'twilio-integration');
      case 'openai-api':
        return single('blog', 'openai-api');
      default:
        return null;
    }
  }

  /** Each service's readiness, database and round trip, for the General tab. */
  async services(): Promise<PlatformStatus['services']> {
    return Promise.all(
      SERVICE_NAMES.map(async (service) => {
        const answer = await this.ask<DiagnosticResult>(service, diagnosticsSubject(service), {
          check: 'database',
        });
        if (!answer.ok)
          return {
            service,
            state: 'not_running' as const,
            database: null,
            answeredInMs: null,
            error: answer.message,
          };
        const db = answer.value;
        return {
          service,
          state: db.status === 'success' ? ('ready' as const) : ('not_ready' as const),
          database: { status: db.status, details: db.details, latencyMs: db.duration },
          answeredInMs: answer.roundTripMs,
          error: null,
        };
      }),
    );
  }

  async deadLetters(): Promise<DeadLettersResponse> {
    const services = await Promise.all(
      SERVICE_NAMES.map(async (service) => {
        const answer = await this.ask<DeadLetterItem[]>(service, deadLettersSubject(service, 'list'), {});
        return answer.ok
          ? { service, reachable: true, error: null, deadLetters: answer.value }
          : { service, reachable: false, error: answer.message, deadLetters: [] };
      }),
    );
    return { services, total: services.reduce((n, s) => n + s.deadLetters.length, 0) };
  }

  async replay(service: ServiceName, ids: string[] | 'all'): Promise<Answer<{ queued: number }>> {
    return this.ask<{ queued: number }>(service, deadLettersSubject(service, 'replay'), { ids });
  }
}
