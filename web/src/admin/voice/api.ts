import type {
  CallBody,
  CallResponse,
  CallStatus,
  Conversation,
  ConversationsResponse,
  SpeechEngineName,
  TestSynthesisBody,
  VoiceOverview,
  VoicesResponse,
} from '@parley/contracts';
import {
  FINAL_CALL_STATUSES,
  SPEECH_CACHE_HEADER,
  SPEECH_ENGINE_HEADER,
  SPEECH_ENGINES,
} from '@parley/contracts/voice';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiErrorOf } from '../../lib/api.ts';
import { adminQueryRetry, adminRequest } from '../lib/api.ts';

/**
 * Voice calls of the back office (spec §7; paths as in the gateway's route table): the
 * overview figures, the voice list, test synthesis, outbound calls and the call history.
 */

export const VOICE_OVERVIEW_PATH = '/api/voice/overview';
export const VOICES_PATH = '/api/voice/voices';
export const TEST_SYNTHESIS_PATH = '/api/voice/test-synthesis';
export const CALL_PATH = '/api/voice/call';
export const CONVERSATIONS_PATH = '/api/voice/conversations';

/**
 * While a call is not final, the history and the overview are read again this often, so a
 * call visibly moves queued → ringing → in-progress → completed (the simulator's steps are
 * 0.8 s, 2.5 s and 6.5 s apart).
 */
export const LIVE_REFRESH_MS = 1000;

export const isFinalStatus = (status: CallStatus) => FINAL_CALL_STATUSES.includes(status);

export function useVoiceOverview() {
  return useQuery<VoiceOverview>({
    queryKey: [VOICE_OVERVIEW_PATH],
    refetchInterval: (query) => ((query.state.data?.activeCalls ?? 0) > 0 ? LIVE_REFRESH_MS : false),
    ...adminQueryRetry,
  });
}

export function useVoices() {
  return useQuery<VoicesResponse>({ queryKey: [VOICES_PATH], ...adminQueryRetry });
}

/** The call history, newest first; polled only while some call is still under way. */
export function useConversations() {
  return useQuery<ConversationsResponse, Error, Conversation[]>({
    queryKey: [CONVERSATIONS_PATH],
    select: (res) => res.conversations,
    refetchInterval: (query) =>
      query.state.data?.conversations.some((c) => !isFinalStatus(c.status)) ? LIVE_REFRESH_MS : false,
    ...adminQueryRetry,
  });
}

export interface Synthesis {
  audio: Blob;
  /** The engine that spoke, from the response header; null when the header did not arrive. */
  engine: SpeechEngineName | null;
  /** Served from the speech cache rather than synthesised now. */
  cached: boolean;
}

const isEngine = (v: string | null): v is SpeechEngineName =>
  v !== null && (SPEECH_ENGINES as readonly string[]).includes(v);

/**
 * POST /api/voice/test-synthesis. The answer is MP3 bytes, so this is a plain fetch with the
 * headers adminRequest would send (JSON body plus the CSRF marker); errors read like the
 * data layer's: `Error("{status}: {body}")`.
 */
export async function synthesize(body: TestSynthesisBody): Promise<Synthesis> {
  const res = await fetch(TEST_SYNTHESIS_PATH, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'parley' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw await apiErrorOf(res);
  const engine = res.headers.get(SPEECH_ENGINE_HEADER);
  return {
    audio: await res.blob(),
    engine: isEngine(engine) ? engine : null,
    cached: res.headers.get(SPEECH_CACHE_HEADER) === 'hit',
  };
}

/** Places a call; on success the history and the overview figures are read again (spec §7). */
export function usePlaceCall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CallBody) => adminRequest<CallResponse>('POST', CALL_PATH, body),
    // Not awaited: the 'Call Initiated' toast need not wait for the lists.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [CONVERSATIONS_PATH] });
      void queryClient.invalidateQueries({ queryKey: [VOICE_OVERVIEW_PATH] });
    },
  });
}

export const ENGINE_LABELS: Record<SpeechEngineName, string> = {
  elevenlabs: 'ElevenLabs',
  local: 'Local engine (espeak-ng)',
};

export const engineLabel = (engine: string) =>
  isEngine(engine) ? ENGINE_LABELS[engine] : engine || 'Unknown engine';

export const CALL_STATUS_LABELS: Record<CallStatus, string> = {
  queued: 'Queued',
  ringing: 'Ringing',
  'in-progress': 'In Progress',
  completed: 'Completed',
  busy: 'Busy',
  failed: 'Failed',
  'no-answer': 'No Answer',
  canceled: 'Canceled',
};

export const CALL_STATUS_BADGE: Record<CallStatus, string> = {
  queued: 'border-slate-400/40 bg-slate-400/10 text-slate-200',
  ringing: 'border-amber-400/40 bg-amber-400/10 text-amber-200',
  'in-progress': 'border-cyan-400/40 bg-cyan-400/10 text-cyan-200',
  completed: 'border-emerald-400/40 bg-emerald-400/10 text-emerald-200',
  busy: 'border-orange-400/40 bg-orange-400/10 text-orange-200',
  failed: 'border-red-400/40 bg-red-400/10 text-red-200',
  'no-answer': 'border-orange-400/40 bg-orange-400/10 text-orange-200',
  canceled: 'border-red-400/40 bg-red-400/10 text-red-200',
};

/** Seconds as m:ss. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
