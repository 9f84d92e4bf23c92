import type { CallStatus } from '@parley/contracts';

export interface PlaceCall {
  to: string;
  /** What the agent says when the call is answered. */
  message: string;
}

/** Places calls: Twilio when configured, the local simulator otherwise. */
export interface CallProvider {
  readonly name: 'twilio' | 'simulator';
  readonly simulated: boolean;
  place(call: PlaceCall): Promise<{ callSid: string }>;
}

/** Receives status reports (from the simulator's timeline or Twilio's callbacks). */
export type StatusSink = (
  callSid: string,
  status: CallStatus,
  extra?: { duration?: number; addTranscript?: string[] },
) => Promise<void>;
