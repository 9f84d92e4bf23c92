import type { DemoCallBody, DemoCallResponse } from '@parley/contracts';
import { normalizePhone } from '@parley/contracts/phone';
import { apiRequest } from '../../lib/api.ts';

export const DEMO_CALL_PATH = '/api/voice/demo-call';

/** The voice service's answer when the call was placed (DemoCallResponse.status). */
export const DEMO_CALL_INITIATED = 'initiated';

/**
 * Asks the voice service to phone the visitor (spec §7, the widget's call): the number goes
 * out normalised (+1 and 10 digits), the name as typed. Resolves true when the call was
 * placed; false for an answer without success. A refusal (400, 429) or a network failure
 * throws; the widget treats both the same way (spec §8 "Demo call failure").
 */
export async function requestDemoCall(name: string, phone: string): Promise<boolean> {
  const body: DemoCallBody = { name: name.trim(), phone_number: normalizePhone(phone) };
  const res = await apiRequest('POST', DEMO_CALL_PATH, body);
  const data = (await res.json()) as Partial<DemoCallResponse>;
  return data.status === DEMO_CALL_INITIATED;
}

/** Elapsed time as m:ss ('0:07', '2:45', '12:03'). */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}
