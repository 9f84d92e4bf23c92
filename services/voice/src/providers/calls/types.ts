import type { CallStatus } from '@parley/contracts';

export interface PlaceCall {
  to: string;
  /** What the agent says when the call is answered. */
  message: string;
  /**
   * Our conversation's id (its row exists before the call is placed). The provider hands it
   * back with every status report, so a report that arrives before the provider's answer
   * (and so before the callSid is stored) still finds its conversation.
   */
  conversationId: string;
}

/** Places calls: Twilio when configured, the local simulator otherwise. */
export interface CallProvider {
  readonly name: 'twilio' | 'simulator';
  readonly simulated: boolean;
  place(call: PlaceCall): Promise<{ callSid: string }>;
}

/** Which call a status report is about: the provider's callSid and, when known, our conversation id. */
export interface CallRef {
  conversationId?: string;
  callSid: string;
}

/** Receives status reports (from the simulator's timeline or Twilio's callbacks). */
export type StatusSink = (
  call: CallRef,
  status: CallStatus,
  extra?: { duration?: number; addTranscript?: string[] },
) => Promise<void>;
