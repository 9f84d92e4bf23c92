import {
  AckPolicy,
  type Consumer,
  type ConsumerMessages,
  DeliverPolicy,
  DiscardPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
} from '@nats-io/jetstream';
import { connect, headers, type NatsConnection, nanos } from '@nats-io/transport-node';
import { type EventEnvelope, producerOf, type ServiceName, STREAM_LIMITS, streamOf } from '@parley/contracts';
import type { Logger } from 'pino';
import { Dispatcher } from './dispatcher.ts';
import {
  type BusConsumer,
  BusUnavailableError,
  type EventBus,
  type PublishResult,
  type Responder,
  type Subscription,
} from './types.ts';

/** JetStream redelivers a message nobody acknowledged within ack_wait (default 30 s)... */
const ACK_WAIT_MS = 30_000;
/** JetStream drops a second publish with the same msgID inside this window. */
const DUPLICATE_WINDOW_MS = 10 * 60_000;
/** Unacknowledged messages the server hands out per durable, across all replicas. */
const MAX_ACK_PENDING = 1000;
const PUBLISH_TIMEOUT_MS = 5000;
const FETCH_EXPIRES_MS = 5000;

export interface NatsBusOptions {
  url: string;
  /** Connection name shown by the server (the service name). */
  name: string;
  logger: Logger;
  /** How long the server waits for an ack before redelivering (default 30 s; tests shorten it). */
  ackWaitMs?: number;
}

/**
 * JetStream bus: one stream per producing service (`BOOKING` holds `booking.>`), msgID dedupe
 * on publish, durable pull consumers with explicit ack. A consumer pulls only as many messages
 * as it has free slots (so nothing waits in a buffer while its ack_wait runs out), tells the
 * server a long delivery is still being worked on, and naks a failure with the delay the
 * retry policy chose. Deliveries are unlimited on the server: the kit's consumer decides when
 * an event goes to the dead letters. traceparent travels in the message headers.
 */
export async function createNatsBus(opts: NatsBusOptions): Promise<EventBus> {
  // Said every 5 s while the first connection waits, so a wrong NATS_URL is not silent.
  const waiting = setInterval(() => opts.logger.warn({ url: opts.url }, 'waiting for NATS'), 5_000);
  const nc: NatsConnection = await connect({
    servers: opts.url,
    name: opts.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    // A service started before NATS (Kubernetes starts them together) waits for it.
    waitOnFirstConnect: true,
  }).finally(() => clearInterval(waiting));
  const jsm: JetStreamManager = await jetstreamManager(nc);
  const js: JetStreamClient = jetstream(nc, { timeout: PUBLISH_TIMEOUT_MS });
  const ensured = new Map<string, Promise<void>>();
  const log = opts.logger.child({ bus: 'nats' });
  const stops = new Set<() => Promise<void>>();
  const lagSources = new Set<() => Promise<[string, number] | null>>();
  let connected = true;
  let closing = false;
  const ackWaitMs = opts.ackWaitMs ?? ACK_WAIT_MS;
  // ...so a delivery still running tells the server, every third of it, that it is being worked on.
  const workingEveryMs = Math.max(100, Math.floor(ackWaitMs / 3));

  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') {
        connected = false;
        if (!closing) log.warn('NATS connection lost; reconnecting (outbox rows wait in the database)');
      } else if (s.type === 'reconnect') {
        connected = true;
        log.info('NATS connection restored');
      }
    }
  })().catch(() => {});

  function ensureStream(service: ServiceName): Promise<void> {
    const name = streamOf(service);
    let p = ensured.get(name);
    if (!p) {
      p = (async () => {
        const limits = STREAM_LIMITS[service];
        const config: Partial<StreamConfig> & { name: string } = {
          name,
          subjects: [`${service}.>`],
          retention: RetentionPolicy.Limits,
          storage: StorageType.File,
          discard: DiscardPolicy.Old,
          duplicate_window: nanos(DUPLICATE_WINDOW_MS),
          max_age: nanos(limits.maxAgeDays * 86_400_000),
          max_bytes: limits.maxBytes,
        };
        const info = await jsm.streams.info(name).catch(() => null);
        if (!info) {
          await jsm.streams.add(config).catch(async (err) => {
            // Another replica created it first.
            if (!(await jsm.streams.info(name).catch(() => null))) throw err;
          });
        } else if (info.config.max_age !== config.max_age || info.config.max_bytes !== config.max_bytes) {
          await jsm.streams.update(name, { ...info.config, ...config });
        }
      })();
      p.catch(() => ensured.delete(name));
      ensured.set(name, p);
    }
    return p;
  }

  // Several filter subjects per consumer need NATS 2.10; older servers get one consumer
  // per subject (same semantics: each event reaches the durable once).
  const [major = 0, minor = 0] = (nc.info?.version ?? '0.0').split('.').map(Number);
  const multiFilter = major > 2 || (major === 2 && minor >= 10);

  async function ensureConsumer(stream: string, durable: string, subjects: string[]): Promise<Consumer> {
    const filter = subjects.length === 1 ? { filter_subject: subjects[0] } : { filter_subjects: subjects };
    const settings = {
      ...filter,
      max_deliver: -1,
      ack_wait: nanos(ackWaitMs),
      max_ack_pending: MAX_ACK_PENDING,
    };
    const existing = await jsm.consumers.info(stream, durable).catch(() => null);
    if (existing) await jsm.consumers.update(stream, durable, settings);
    else {
      await jsm.consumers
        .add(stream, {
          durable_name: durable,
          ack_policy: AckPolicy.Explicit,
          // A new durable starts at the beginning of the stream: it sees what happened before it.
          deliver_policy: DeliverPolicy.All,
          ...settings,
        })
        .catch(async (err) => {
          if (!(await jsm.consumers.info(stream, durable).catch(() => null))) throw err;
        });
    }
    return js.consumers.get(stream, durable);
  }

  function decode(m: JsMsg): EventEnvelope | null {
    try {
      const event = m.json<EventEnvelope>();
      const tp = m.headers?.get('traceparent');
      if (tp && !event.traceparent) event.traceparent = tp;
      return event;
    } catch {
      return null;
    }
  }

  /** Pulls and runs deliveries of one JetStream consumer until stopped. */
  function run(
    stream: string,
    durable: string,
    consumer: Consumer,
    bus: BusConsumer,
    dispatcher: Dispatcher,
  ) {
    let active = true;
    let batch: ConsumerMessages | null = null;
    const done = (async () => {
      while (active) {
        await dispatcher.slot();
        if (!active) break;
        const free = dispatcher.limit - dispatcher.running;
        try {
          batch = await consumer.fetch({ max_messages: free, expires: FETCH_EXPIRES_MS });
          for await (const m of batch) {
            const event = decode(m);
            if (!event) {
              // Not an envelope at all: nothing any retry could fix, and no id to keep it by.
              log.error({ durable, subject: m.subject, seq: m.seq }, 'undecodable message terminated');
              m.term('undecodable');
              continue;
            }
            const working = setInterval(() => m.working(), workingEveryMs);
            dispatcher.run(event.key, async () => {
              try {
                const outcome = await bus.deliver(event, m.info.deliveryCount);
                if ('ack' in outcome) m.ack();
                else m.nak(outcome.retryInMs);
              } finally {
                clearInterval(working);
              }
            });
          }
        } catch (err) {
          if (!active) break;
          log.warn({ err, durable }, 'pulling messages failed; retrying');
          await new Promise((r) => setTimeout(r, 1000));
        } finally {
          batch = null;
        }
      }
    })();
    lagSources.add(async () => {
      const info = await jsm.consumers.info(stream, durable).catch(() => null);
      return info ? [bus.durable, info.num_pending + info.num_ack_pending] : null;
    });
    return async () => {
      active = false;
      await batch?.close().catch(() => {});
      await done;
      await dispatcher.idle();
    };
  }

  async function publishOne(event: EventEnvelope): Promise<void> {
    const producer = producerOf(event.subject);
    if (!connected) throw new BusUnavailableError('NATS is not connected');
    try {
      await ensureStream(producer);
      const h = headers();
      if (event.traceparent) h.set('traceparent', event.traceparent);
      await js.publish(event.subject, JSON.stringify(event), { msgID: event.id, headers: h });
    } catch (err) {
      if (!connected || nc.isClosed() || isTransient(err)) {
        throw new BusUnavailableError(`NATS could not take the event: ${(err as Error).message}`);
      }
      throw err;
    }
  }

  const bus: EventBus = {
    kind: 'nats',
    publish: publishOne,
    async publishBatch(events) {
      const settled = await Promise.allSettled(events.map((e) => publishOne(e)));
      return settled.map(
        (s): PublishResult =>
          s.status === 'fulfilled' ? { ok: true } : { ok: false, error: s.reason as Error },
      );
    },
    async subscribe(spec) {
      // A consumer lives in one stream; subjects from several producers need one each.
      const byStream = new Map<ServiceName, string[]>();
      for (const subject of spec.subjects) {
        const producer = producerOf(subject);
        byStream.set(producer, [...(byStream.get(producer) ?? []), subject]);
      }
      const dispatcher = new Dispatcher(spec.concurrency);
      const mine: Array<() => Promise<void>> = [];
      for (const [producer, subjects] of byStream) {
        await ensureStream(producer);
        const groups = multiFilter ? [subjects] : subjects.map((s) => [s]);
        for (const group of groups) {
          const durable =
            multiFilter || subjects.length === 1
              ? spec.durable
              : `${spec.durable}_${group[0]?.replaceAll('.', '_')}`;
          const stream = streamOf(producer);
          const consumer = await ensureConsumer(stream, durable, group);
          mine.push(run(stream, durable, consumer, spec, dispatcher));
        }
      }
      const stop = async () => {
        stops.delete(stop);
        await Promise.all(mine.map((s) => s()));
      };
      stops.add(stop);
      return { stop };
    },
    async request(subject, payload, requestOpts = {}) {
      const reply = await nc
        .request(subject, JSON.stringify(payload), { timeout: requestOpts.timeoutMs ?? 5000 })
        .catch((err: Error) => {
          throw new BusUnavailableError(`no answer on ${subject}: ${err.message}`);
        });
      const answer = reply.json<{ ok: boolean; value?: unknown; error?: string }>();
      if (!answer.ok) throw new Error(answer.error ?? `request on ${subject} failed`);
      return answer.value;
    },
    async respond(subject, group, responder: Responder) {
      const sub = nc.subscribe(subject, {
        queue: group,
        callback: (err, msg) => {
          if (err) return;
          void (async () => {
            let answer: { ok: boolean; value?: unknown; error?: string };
            try {
              answer = { ok: true, value: await responder(msg.data.length ? msg.json() : undefined) };
            } catch (e) {
              answer = { ok: false, error: (e as Error).message };
            }
            msg.respond(JSON.stringify(answer));
          })();
        },
      });
      return {
        async stop() {
          await sub.drain().catch(() => sub.unsubscribe());
        },
      } satisfies Subscription;
    },
    isConnected() {
      return connected && !nc.isClosed();
    },
    async lag() {
      const out: Record<string, number> = {};
      for (const source of lagSources) {
        const entry = await source();
        if (entry) out[entry[0]] = (out[entry[0]] ?? 0) + entry[1];
      }
      return out;
    },
    async close() {
      closing = true;
      await Promise.all([...stops].map((s) => s()));
      await nc.drain().catch(() => nc.close());
    },
  };
  return bus;
}

/** Errors of the connection or the server's availability, not of the message. */
function isTransient(err: unknown): boolean {
  const e = err as { code?: string; message?: string; name?: string } | null;
  const text = `${e?.name ?? ''} ${e?.code ?? ''} ${e?.message ?? ''}`.toLowerCase();
  return /timeout|timed out|disconnect|closed|no responders|503|connection|reconnect/.test(text);
}
