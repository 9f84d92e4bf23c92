import { Counter, type Registry } from 'prom-client';
import type { BudgetLimits, BudgetPeriod, SpeechBudgetRepository } from './repo/speech-budget.repository.ts';

/** A paid synthesis was refused: the minute's or the day's characters are spent. */
export class SpeechBudgetExceeded extends Error {
  override name = 'SpeechBudgetExceeded';
  constructor(
    readonly period: BudgetPeriod,
    /** Seconds until that budget starts again (at least 1). */
    readonly retryAfterSeconds: number,
  ) {
    super(
      period === 'minute'
        ? `Speech is busy right now. Please try again in ${retryAfterSeconds} seconds.`
        : "Today's speech budget is used up. Please try again tomorrow.",
    );
  }
}

/**
 * The global character budget of a paid speech engine (TTS_PAID_CHARS_PER_MINUTE and
 * TTS_PAID_CHARS_PER_DAY): every synthesis the caches could not answer takes its text's
 * length from the current UTC minute and day before the engine is asked, across all
 * replicas (the counters are rows in the voice database), and gives it back when the engine
 * failed. Metrics: `speech_paid_characters_total` (characters this replica had spoken by the
 * paid engine) and `speech_budget_refusals_total{period}`.
 */
export class SpeechBudget {
  private readonly spoken: Counter<'engine'>;
  private readonly refusals: Counter<'period'>;

  constructor(
    private readonly repo: SpeechBudgetRepository,
    readonly limits: BudgetLimits,
    private readonly engine: string,
    private readonly now: () => Date,
    registry: Registry,
  ) {
    this.spoken = new Counter({
      name: 'speech_paid_characters_total',
      help: 'Characters sent to a paid speech engine by this replica (synthesised, not cached)',
      labelNames: ['engine'] as const,
      registers: [registry],
    });
    this.refusals = new Counter({
      name: 'speech_budget_refusals_total',
      help: 'Paid syntheses refused because the per-minute or per-day character budget was spent',
      labelNames: ['period'] as const,
      registers: [registry],
    });
  }

  /**
   * Takes `chars` from the budget, or throws SpeechBudgetExceeded. Returns what to call with
   * the outcome: spoken (counted) or failed (given back).
   */
  async take(chars: number): Promise<(spoken: boolean) => Promise<void>> {
    const at = this.now();
    const r = await this.repo.reserve(chars, at, this.limits);
    if (!r.ok) {
      this.refusals.inc({ period: r.period });
      throw new SpeechBudgetExceeded(
        r.period,
        Math.max(1, Math.ceil((r.resetsAt.getTime() - at.getTime()) / 1000)),
      );
    }
    return async (spoken) => {
      if (spoken) this.spoken.inc({ engine: this.engine }, chars);
      else await this.repo.refund(chars, at);
    };
  }
}
