import {
  AckPolicy,
  type ConsumerMessages,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import { connect, headers, type NatsConnection, nanos } from '@nats-io/transport-node';
import { type EventEnvelope, producerOf, type ServiceName, streamOf } from '@parley/contracts';
import type { Logger } from 'pino';
import { runConsumerHandler } from './handler.ts';
import {
  type ConsumerSpec,
  DEFAULT_MAX_DELIVER,
  DEFAULT_RETRY_DELAY_MS,
  type EventBus,
  type Subscription,
} from './types.ts';

const ACK_WAIT_MS = 30_000;
/** JetStream drops a second publish with the same msgID inside this window. */
const DUPLICATE_WINDOW_MS = 10 * 60_000;
const STREAM_MAX_AGE_MS = 7 * 24 * 3600_000;

export interface NatsBusOptions {
  url: string;
  /** Connection name shown by the server (the service name). */
  name: string;
  logger: Logger;
}

interface ActiveConsumer {
  stream: string;
  durable: string;
  messages: ConsumerMessages;
  done: Promise<void>;
}

/**
 * JetStream bus: one stream per producing service (`BOOKING` holds `booking.>`), msgID
 * dedupe on publish, durable pull consumers with explicit ack, nak with delay on
 * failure and term after maxDeliver; traceparent travels in the message headers.
 */
export async function createNatsBus(opts: NatsBusOptions): Promise<EventBus> {
  const nc: NatsConnection = await connect({
    servers: opts.url,
    name: opts.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
  });
  const jsm: JetStreamManager = await jetstreamManager(nc);
  const js: JetStreamClient = jetstream(nc);
  const ensured = new Map<string, Promise<void>>();
  const consumers = new Set<ActiveConsumer>();
  const log = opts.logger.child({ bus: 'nats' });

  function ensureStream(service: ServiceName): Promise<void> {
    const name = streamOf(service);
    let p = ensured.get(name);
    if (!p) {
      p = (async () => {
        const config = {
          name,
          subjects: [`${service}.>`],
          retention: RetentionPolicy.Limits,
          storage: StorageType.File,
          duplicate_window: nanos(DUPLICATE_WINDOW_MS),
          max_age: nanos(STREAM_MAX_AGE_MS),
        };
        try {
          await jsm.streams.info(name);
        } catch {
          try {
            await jsm.streams.add(config);
          } catch (err) {
            // Another replica created it first.
            await jsm.streams.info(name).catch(() => {
              throw err;
            });
          }
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

  async function consume(
    stream: string,
    spec: ConsumerSpec,
    durable: string,
    subjects: string[],
  ): Promise<ActiveConsumer> {
    const filter = subjects.length === 1 ? { filter_subject: subjects[0] } : { filter_subjects: subjects };
    const config = {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ...filter,
      max_deliver: spec.maxDeliver ?? DEFAULT_MAX_DELIVER,
      ack_wait: nanos(ACK_WAIT_MS),
    };
    try {
      await jsm.consumers.info(stream, durable);
      await jsm.consumers.update(stream, durable, {
        ...filter,
        max_deliver: config.max_deliver,
        ack_wait: config.ack_wait,
      });
    } catch {
      await jsm.consumers.add(stream, config).catch(async (err) => {
        await jsm.consumers.info(stream, durable).catch(() => {
          throw err;
        });
      });
    }
    const consumer = await js.consumers.get(stream, durable);
    const messages = await consumer.consume({ max_messages: 64 });
    const maxDeliver = spec.maxDeliver ?? DEFAULT_MAX_DELIVER;
    const done = (async () => {
      for await (const m of messages) {
        let event: EventEnvelope;
        try {
          event = m.json<EventEnvelope>();
          const tp = m.headers?.get('traceparent');
          if (tp && !event.traceparent) event.traceparent = tp;
        } catch (err) {
          log.error({ err, subject: m.subject, seq: m.seq }, 'undecodable event terminated');
          m.term('undecodable');
          continue;
        }
        const deliveryCount = m.info.deliveryCount;
        const outcome = await runConsumerHandler(spec, event, deliveryCount, log);
        if (outcome === 'ack') m.ack();
        else if (deliveryCount >= maxDeliver) {
          log.error(
            { durable: spec.durable, eventId: event.id, subject: event.subject, deliveryCount },
            'event terminated after max deliveries',
          );
          m.term('max deliveries');
        } else m.nak(spec.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS);
      }
    })().catch((err) => log.error({ err, durable: spec.durable }, 'consumer loop ended'));
    return { stream, durable, messages, done };
  }

  return {
    kind: 'nats',
    async publish(event) {
      const producer = producerOf(event.subject);
      await ensureStream(producer);
      const h = headers();
      if (event.traceparent) h.set('traceparent', event.traceparent);
      await js.publish(event.subject, JSON.stringify(event), { msgID: event.id, headers: h });
    },
    async subscribe(spec) {
      // A consumer lives in one stream; subjects from several producers need one each.
      const byStream = new Map<ServiceName, string[]>();
      for (const subject of spec.subjects) {
        const producer = producerOf(subject);
        byStream.set(producer, [...(byStream.get(producer) ?? []), subject]);
      }
      const mine: ActiveConsumer[] = [];
      for (const [producer, subjects] of byStream) {
        await ensureStream(producer);
        const groups = multiFilter ? [subjects] : subjects.map((s) => [s]);
        for (const group of groups) {
          const durable =
            multiFilter || subjects.length === 1
              ? spec.durable
              : `${spec.durable}_${group[0]?.replaceAll('.', '_')}`;
          const c = await consume(streamOf(producer), spec, durable, group);
          consumers.add(c);
          mine.push(c);
        }
      }
      const sub: Subscription = {
        async stop() {
          for (const c of mine) {
            await c.messages.close().catch(() => {});
            await c.done;
            consumers.delete(c);
          }
        },
      };
      return sub;
    },
    async isReady() {
      if (nc.isClosed()) return false;
      try {
        await jsm.getAccountInfo();
        return true;
      } catch {
        return false;
      }
    },
    async lag() {
      const out: Record<string, number> = {};
      for (const c of consumers) {
        const info = await jsm.consumers.info(c.stream, c.durable).catch(() => null);
        if (info) out[c.durable] = (out[c.durable] ?? 0) + info.num_pending + info.num_ack_pending;
      }
      return out;
    },
    async close() {
      for (const c of consumers) {
        await c.messages.close().catch(() => {});
        await c.done;
      }
      consumers.clear();
      await nc.drain().catch(() => nc.close());
    },
  };
}
