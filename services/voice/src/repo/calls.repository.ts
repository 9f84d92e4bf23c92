import { type CallStatus, type Conversation, FINAL_CALL_STATUSES } from '@parley/contracts';
import { enqueueEvent } from '@parley/kit';
import type { VoiceDb } from '../db.ts';
import type { Conversation as Row } from '../generated/prisma/client.ts';

export const toConversation = (r: Row): Conversation => ({
  id: r.id,
  callSid: r.callSid,
  phone: r.phone,
  status: r.status as CallStatus,
  duration: r.duration,
  transcript: r.transcript,
  kind: r.kind,
  simulated: r.simulated,
  createdAt: r.createdAt.toISOString(),
});

export interface NewCall {
  callSid: string;
  phone: string;
  kind: 'admin' | 'demo';
  simulated: boolean;
  transcript: string[];
  callerName?: string | null;
  clientIp?: string | null;
}

export interface DemoLimits {
  perNumberPerDay: number;
  perIpPerDay: number;
  maxConcurrent: number;
}

export type DemoRefusal = 'number' | 'ip' | 'busy';

const LOCK_DEMO_CALLS = 7_201_001;

/** Calls and conversations of the voice service. */
export class CallsRepository {
  constructor(private readonly db: VoiceDb) {}

  async create(call: NewCall): Promise<Conversation> {
    return this.db.$transaction(async (tx) => {
      const row = await tx.conversation.create({ data: { ...call, status: 'queued' } });
      const conversation = toConversation(row);
      await enqueueEvent(tx, 'voice.call.started', { conversation });
      return conversation;
    });
  }

  /**
   * Checks the demo limits and records the call in one transaction, under a lock, so a burst
   * of parallel requests cannot slip past them. `place` runs inside (it must be quick).
   */
  async createDemoCall(
    call: Omit<NewCall, 'kind' | 'callSid'>,
    limits: DemoLimits,
    now: Date,
    place: () => Promise<{ callSid: string }>,
  ): Promise<Conversation | DemoRefusal> {
    return this.db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock($1)', LOCK_DEMO_CALLS);
      const since = new Date(now.getTime() - 86_400_000);
      const [byNumber, byIp, active] = await Promise.all([
        tx.conversation.count({ where: { kind: 'demo', phone: call.phone, createdAt: { gt: since } } }),
        call.clientIp
          ? tx.conversation.count({
              where: { kind: 'demo', clientIp: call.clientIp, createdAt: { gt: since } },
            })
          : 0,
        tx.conversation.count({
          where: {
            kind: 'demo',
            status: { notIn: [...FINAL_CALL_STATUSES] },
            createdAt: { gt: new Date(now.getTime() - 3_600_000) },
          },
        }),
      ]);
      if (byNumber >= limits.perNumberPerDay) return 'number';
      if (byIp >= limits.perIpPerDay) return 'ip';
      if (active >= limits.maxConcurrent) return 'busy';
      const { callSid } = await place();
      const row = await tx.conversation.create({
        data: { ...call, callSid, kind: 'demo', status: 'queued' },
      });
      const conversation = toConversation(row);
      await enqueueEvent(tx, 'voice.call.started', { conversation });
      return conversation;
    });
  }

  /** Applies a status report; publishes `voice.call.completed` once when it turns final. */
  async updateStatus(
    callSid: string,
    status: CallStatus,
    extra: { duration?: number; addTranscript?: string[] } = {},
  ): Promise<Conversation | null> {
    return this.db.$transaction(async (tx) => {
      const row = await tx.conversation.findUnique({ where: { callSid } });
      if (!row) return null;
      const wasFinal = FINAL_CALL_STATUSES.includes(row.status as CallStatus);
      // A late "ringing" after "completed" (callbacks can arrive out of order) changes nothing.
      if (wasFinal && !FINAL_CALL_STATUSES.includes(status)) return toConversation(row);
      const updated = await tx.conversation.update({
        where: { callSid },
        data: {
          status,
          ...(extra.duration !== undefined ? { duration: extra.duration } : {}),
          ...(extra.addTranscript?.length ? { transcript: { push: extra.addTranscript } } : {}),
        },
      });
      const conversation = toConversation(updated);
      if (!wasFinal && FINAL_CALL_STATUSES.includes(status))
        await enqueueEvent(tx, 'voice.call.completed', { conversation });
      return conversation;
    });
  }

  async list(limit = 100): Promise<Conversation[]> {
    const rows = await this.db.conversation.findMany({ orderBy: { createdAt: 'desc' }, take: limit });
    return rows.map(toConversation);
  }

  async stats(now: Date): Promise<{ active: number; today: number }> {
    const dayStart = new Date(now.getTime() - 86_400_000);
    const [active, today] = await Promise.all([
      this.db.conversation.count({
        where: {
          status: { notIn: [...FINAL_CALL_STATUSES] },
          createdAt: { gt: new Date(now.getTime() - 3_600_000) },
        },
      }),
      this.db.conversation.count({ where: { createdAt: { gt: dayStart } } }),
    ]);
    return { active, today };
  }
}
