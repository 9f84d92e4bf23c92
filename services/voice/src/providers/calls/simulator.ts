import { randomBytes } from 'node:crypto';
import type { CallProvider, StatusSink } from './types.ts';

/** Milliseconds from placing the call to each status of the simulated timeline. */
export const SIMULATED_TIMELINE = { ringing: 800, answered: 2500, completed: 6500 } as const;

/**
 * The local call provider: no telephone network, but the same lifecycle as Twilio
 * (queued → ringing → in-progress → completed over a few seconds), a transcript of what the
 * agent said and a plausible reply, all marked `simulated`.
 */
export function callSimulator(
  report: () => StatusSink,
  timeline = SIMULATED_TIMELINE,
): CallProvider & { stop(): void } {
  const timers = new Set<NodeJS.Timeout>();
  const at = (ms: number, fn: () => Promise<void>) => {
    const t = setTimeout(() => {
      timers.delete(t);
      void fn().catch(() => {});
    }, ms);
    timers.add(t);
  };
  return {
    name: 'simulator',
    simulated: true,
    async place({ message, conversationId }) {
      const callSid = `SIM${randomBytes(16).toString('hex')}`;
      // Like Twilio's callbacks, every report names the conversation it belongs to.
      const call = { conversationId, callSid };
      at(timeline.ringing, () => report()(call, 'ringing'));
      at(timeline.answered, () =>
        report()(call, 'in-progress', {
          addTranscript: [`AI: ${message}`, 'Caller: Hi, yes, thanks for calling. Can you tell me more?'],
        }),
      );
      at(timeline.completed, () =>
        report()(call, 'completed', {
          duration: Math.round((timeline.completed - timeline.answered) / 1000),
          addTranscript: ['AI: Of course. I can book a demo with our team or answer questions now. Goodbye!'],
        }),
      );
      return { callSid };
    },
    stop() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
