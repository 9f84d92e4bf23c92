import { type CallStatus, type Conversation, FINAL_CALL_STATUSES } from '@parley/contracts';
import { enqueueEvent } from '@parley/kit';
import type { VoiceDb } from '../db.ts';
import type { Prisma, Conversation as Row } from '../generated/prisma/client.ts';
import type { CallRef } from '../providers/calls/types.ts';

type Tx = Prisma.TransactionClient;

/** A conversation as the API and events show it (callSid null until the provider answered). */
export const toConversation = (r: Row): Conversation => {
  return {
    id: r.id,
    callSid: r.callSid,
    placeError: r.placeError,
    phone: r.phone,
    status: r.status as CallStatus,
    duration: r.duration,
    transcript: r.transcript,
    kind: r.kind,
    simulated: r.simulated,
    createdAt: r.createdAt.toISOString(),
  };
};

export interface NewCall {
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
/**
 * A reservation the provider never confirmed this long after it was made (its process died
 * while placing the call; the provider's own timeout is 15 s) stops holding a demo line. It
 * still counts against its number's and address's daily limits, since the call may have rung.
 */
const STALE_RESERVATION_MS = 120_000;

/**
 * Calls and conversations of the voice service. A call's row is written first (a reservation,
 * without a callSid), the provider is asked outside any transaction, then the row gets the
 * provider's callSid (`recordPlaced`, or the first status report, whichever comes first) or
 * the provider's refusal (`recordPlaceFailed`).
 */
export class CallsRepository {
  constructor(private readonly db: VoiceDb) {}

  /** Writes an admin call's row before it is placed; returns its conversation id. */
  async reserve(call: NewCall): Promise<string> {
    const row = await this.db.conversation.create({
      data: { ...call, status: 'queued' },
      select: { id: true },
    });
    return row.id;
  }

  /**
   * Checks the demo limits and writes the reservation in one short transaction, under a lock,
   * so a burst of parallel requests cannot slip past them. The call itself is placed after
   * the commit: a slow provider holds neither a transaction nor the lock.
   */
  async reserveDemoCall(
    call: Omit<NewCall, 'kind'>,
    limits: DemoLimits,
    now: Date,
  ): Promise<{ id: string } | DemoRefusal> {
    return this.db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock($1)', LOCK_DEMO_CALLS);
      const since = new Date(now.getTime() - 86_400_000);
      // A call the provider refused was never placed: it counts against nothing.
      const placedOrPending = { kind: 'demo' as const, placeError: null, createdAt: { gt: since } };
      const [byNumber, byIp, active] = await Promise.all([
        tx.conversation.count({ where: { ...placedOrPending, phone: call.phone } }),
        call.clientIp ? tx.conversation.count({ where: { ...placedOrPending, clientIp: call.clientIp } }) : 0,
        tx.conversation.count({
          where: {
            kind: 'demo',
            status: { notIn: [...FINAL_CALL_STATUSES] },
            createdAt: { gt: new Date(now.getTime() - 3_600_000) },
            OR: [
              { callSid: { not: null } },
              { createdAt: { gt: new Date(now.getTime() - STALE_RESERVATION_MS) } },
            ],
          },
        }),
      ]);
      if (byNumber >= limits.perNumberPerDay) return 'number';
      if (byIp >= limits.perIpPerDay) return 'ip';
      if (active >= limits.maxConcurrent) return 'busy';
      const row = await tx.conversation.create({
        data: { ...call, kind: 'demo', status: 'queued' },
        select: { id: true },
      });
      return { id: row.id };
    });
  }

  /**
   * The provider accepted the call: stores its callSid and publishes `voice.call.started`,
   * unless an early status report did both already.
   */
  async recordPlaced(conversationId: string, callSid: string): Promise<Conversation | null> {
    return this.db.$transaction(async (tx) => {
      const row = await this.lock(tx, { conversationId, callSid });
      if (!row) return null;
      if (row.callSid !== null) return row.callSid === callSid ? toConversation(row) : null;
      const conversation = toConversation(
        await tx.conversation.update({ where: { id: row.id }, data: { callSid, placeError: null } }),
      );
      await enqueueEvent(tx, 'voice.call.started', { conversation });
      return conversation;
    });
  }

  /**
   * The provider refused (or never answered): the reservation is closed as failed with the
   * reason, and frees its place in the limits. A status report that got there first (the call
   * exists after all) wins.
   */
  async recordPlaceFailed(conversationId: string, reason: string): Promise<void> {
    await this.db.conversation.updateMany({
      where: { id: conversationId, callSid: null },
      data: { status: 'failed', placeError: reason.slice(0, 500) || 'unknown error' },
    });
  }

  /**
   * Applies a status report; publishes `voice.call.started` when the report is the first news
   * of the call (it arrived before the provider's answer) and `voice.call.completed` once when
   * it turns final. The row is locked, so concurrent reports apply one after the other.
   */
  async updateStatus(
    call: CallRef,
    status: CallStatus,
    extra: { duration?: number; addTranscript?: string[] } = {},
  ): Promise<Conversation | null> {
    return this.db.$transaction(async (tx) => {
      const row = await this.lock(tx, call);
      if (!row) return null;
      // A report naming our conversation but another call is not about this row.
      if (row.callSid !== null && row.callSid !== call.callSid) return null;
      const starting = row.callSid === null;
      const wasFinal = !starting && FINAL_CALL_STATUSES.includes(row.status as CallStatus);
      // A late "ringing" after "completed" (callbacks can arrive out of order) changes nothing.
      if (wasFinal && !FINAL_CALL_STATUSES.includes(status)) return toConversation(row);
      const updated = await tx.conversation.update({
        where: { id: row.id },
        data: {
          status,
          ...(starting ? { callSid: call.callSid, placeError: null } : {}),
          ...(extra.duration !== undefined ? { duration: extra.duration } : {}),
          ...(extra.addTranscript?.length ? { transcript: { push: extra.addTranscript } } : {}),
        },
      });
      const conversation = toConversation(updated);
      if (starting) await enqueueEvent(tx, 'voice.call.started', { conversation });
      if (!wasFinal && FINAL_CALL_STATUSES.includes(status))
        await enqueueEvent(tx, 'voice.call.completed', { conversation });
      return conversation;
    });
  }

  /** The conversation a report is about, locked for the rest of the transaction. */
  private async lock(tx: Tx, call: CallRef): Promise<Row | null> {
    const found = call.conversationId
      ? await tx.$queryRaw<Array<{ id: string }>>`
          SELECT "id" FROM "conversations" WHERE "id" = ${call.conversationId}::uuid FOR UPDATE`
      : await tx.$queryRaw<Array<{ id: string }>>`
          SELECT "id" FROM "conversations" WHERE "call_sid" = ${call.callSid} FOR UPDATE`;
    const id = found[0]?.id;
    return id ? tx.conversation.findUnique({ where: { id } }) : null;
  }

  /** Calls, newest first: placed ones, and attempts the provider refused (with the reason). */
  async list(limit = 100): Promise<Conversation[]> {
    const rows = await this.db.conversation.findMany({
      where: { OR: [{ callSid: { not: null } }, { placeError: { not: null } }] },
      orderBy: { createdAt: 'desc' },
      take: limit,
    });
    return rows.map(toConversation);
  }

  async stats(now: Date): Promise<{ active: number; today: number }> {
    const dayStart = new Date(now.getTime() - 86_400_000);
    const [active, today] = await Promise.all([
      this.db.conversation.count({
        where: {
          status: { notIn: [...FINAL_CALL_STATUSES] },
          createdAt: { gt: new Date(now.getTime() - 3_600_000) },
          OR: [
            { callSid: { not: null } },
            { createdAt: { gt: new Date(now.getTime() - STALE_RESERVATION_MS) } },
          ],
        },
      }),
      this.db.conversation.count({ where: { createdAt: { gt: dayStart }, placeError: null } }),
    ]);
    return { active, today };
  }
}
