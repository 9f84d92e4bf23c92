import { randomBytes, randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import {
  type BlogPost,
  type Booking,
  type Conversation,
  type EventEnvelope,
  type EventPayload,
  type EventSubject,
  eventKey,
  type FeatureInsightsResponse,
  type FeatureRecommendationsResponse,
} from '@parley/contracts';
import {
  createBus,
  createLogger,
  type EventBus,
  type RunningService,
  signAssertion,
  startService,
} from '@parley/kit';
import { createTestDatabase, type NatsServer, startNatsServer } from '@parley/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../src/domain/feature-facts.ts';
import { ActivityRepository } from '../src/repo/activity.repository.ts';
import { settingsService } from '../src/service.ts';

/**
 * Feature discovery end to end on real PostgreSQL and a real NATS JetStream of its own (the
 * projection's durable starts at the beginning of every stream, so a NATS shared with other
 * suites would hand it their bookings and posts): events in → projection → recommendations
 * and insights; late and out-of-order events; a redelivered event applied once; and a second
 * settings instance on a fresh database rebuilding the same projection from the streams.
 */

const secret = randomBytes(32).toString('hex');
const sealKey = randomBytes(32).toString('hex');
const logger = createLogger('feature-discovery-test', 'silent');
const now = Date.now();
const iso = (offsetMs: number) => new Date(now + offsetMs).toISOString();

interface Instance {
  svc: RunningService;
  pool: pg.Pool;
  repo: ActivityRepository;
  databaseUrl: string;
}

let nats: NatsServer;
let publisher: EventBus;
let live: Instance;
const published: EventEnvelope[] = [];
/** Messages the streams hold for the projection (duplicates included). */
let streamMessages = 0;

async function startSettings(prefix: string): Promise<Instance> {
  const databaseUrl = await createTestDatabase(prefix);
  const svc = await startService(settingsService, {
    env: {
      DATABASE_URL: databaseUrl,
      NATS_URL: nats.url,
      INTERNAL_AUTH_SECRET: secret,
      SETTINGS_ENCRYPTION_KEY: sealKey,
      EVENT_RETRY_MAX_DELAY_SECONDS: '0.3',
      LOG_LEVEL: 'silent',
    },
    logger,
    listen: { host: '127.0.0.1', port: 0 },
  });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  return { svc, pool, repo: new ActivityRepository(pool), databaseUrl };
}

async function stopInstance(i: Instance | undefined) {
  await i?.svc.stop();
  await i?.pool.end();
}

function envelope<S extends EventSubject>(
  subject: S,
  payload: EventPayload<S>,
  occurredAt: string,
  id: string = randomUUID(),
): EventEnvelope {
  return { id, subject, occurredAt, payload, key: eventKey(subject, payload) };
}

async function publish<S extends EventSubject>(subject: S, payload: EventPayload<S>, occurredAt: string) {
  const e = envelope(subject, payload, occurredAt);
  await publisher.publish(e);
  published.push(e);
  streamMessages++;
  return e;
}

/**
 * Publishes an event again as a relay that crashed between publishing and marking it would,
 * after JetStream's duplicate window: a core NATS publish without a message id, which the
 * stream stores as a second message carrying the same event.
 */
async function publishAgainWithoutDedupe(e: EventEnvelope): Promise<void> {
  const url = new URL(nats.url);
  const body = Buffer.from(JSON.stringify(e));
  await new Promise<void>((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let seen = '';
    let sent = false;
    socket.setEncoding('utf8');
    socket.on('error', reject);
    socket.on('data', (chunk: string) => {
      seen += chunk;
      if (!sent && seen.includes('\r\n')) {
        // The server's INFO line arrived: say who we are, publish, and ask for a PONG, which
        // comes only after the server has processed the publish.
        sent = true;
        socket.write(`CONNECT {"verbose":false,"pedantic":false}\r\nPUB ${e.subject} ${body.length}\r\n`);
        socket.write(Buffer.concat([body, Buffer.from('\r\nPING\r\n')]));
      }
      if (seen.includes('-ERR')) reject(new Error(seen));
      else if (seen.includes('PONG')) {
        socket.end();
        resolve();
      }
    });
  });
  streamMessages++;
}

async function until<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}

/** Deliveries the projection's durable has acknowledged (the service's own metrics). */
async function acks(i: Instance): Promise<number> {
  const text = await (await fetch(`${i.svc.url}/metrics`)).text();
  let n = 0;
  for (const line of text.split('\n'))
    if (
      line.startsWith('bus_deliveries_total{') &&
      /consumer="settings-activity-/.test(line) &&
      /outcome="ack"/.test(line)
    )
      n += Number(line.split(' ').at(-1));
  return n;
}

/** `i` has acknowledged every message the streams hold for it, and nothing is pending. */
async function caughtUp(i: Instance): Promise<void> {
  await until(`${i.databaseUrl} to acknowledge ${streamMessages} deliveries`, async () => {
    if ((await acks(i)) !== streamMessages) return false;
    const lag = await i.svc.bus.lag();
    return Object.entries(lag).every(([d, n]) => !d.startsWith('settings-activity') || n === 0) || undefined;
  });
}

/** Saves the brand website through the settings API (the store, not the projection). */
async function saveWebsite(i: Instance): Promise<void> {
  const saved = await fetch(`${i.svc.url}/api/admin/settings`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-parley-assertion': await signAssertion(secret, { adminId: 'a1', role: 'admin' }),
    },
    body: JSON.stringify({ key: 'website_url', value: 'https://clinic.example.com' }),
  });
  expect(saved.status).toBe(200);
}

async function call(i: Instance, path: string, admin = true) {
  const res = await fetch(`${i.svc.url}${path}`, {
    headers: admin
      ? { 'x-parley-assertion': await signAssertion(secret, { adminId: 'a1', role: 'admin' }) }
      : {},
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

// ── realistic payloads ────────────────────────────────────────────────────────────────

const booking = (
  id: string,
  status: Booking['status'],
  slotOffsetMs: number,
  createdOffsetMs: number,
): Booking => ({
  id,
  name: 'Jane Roe',
  email: 'jane@example.com',
  phone: '+12025550123',
  company: 'Acme',
  timeSlot: iso(slotOffsetMs),
  timeZone: 'America/New_York',
  status,
  notes: null,
  guests: [],
  createdAt: iso(createdOffsetMs),
});

const post = (
  id: string,
  title: string,
  status: BlogPost['status'],
  publishedOffsetMs: number | null,
): BlogPost => ({
  id,
  title,
  slug: title.toLowerCase().replaceAll(' ', '-'),
  excerpt: null,
  content: 'Body',
  author: 'Parley Team',
  featuredImage: null,
  tags: [],
  status,
  metaTitle: null,
  metaDescription: null,
  publishedAt: publishedOffsetMs === null ? null : iso(publishedOffsetMs),
  createdAt: iso(-20 * DAY_MS),
  updatedAt: iso(-1 * DAY_MS),
});

const call_ = (id: string, kind: Conversation['kind'], offsetMs: number): Conversation => ({
  id,
  callSid: `CA${id}`,
  placeError: null,
  phone: '+12025550123',
  status: 'completed',
  duration: 64,
  transcript: ['Hello'],
  kind,
  simulated: true,
  createdAt: iso(offsetMs),
});

beforeAll(async () => {
  nats = await startNatsServer();
  publisher = await createBus({ natsUrl: nats.url, name: 'feature-discovery-publisher', logger });
  live = await startSettings('settings_activity_live');
});

afterAll(async () => {
  await publisher?.close();
  await stopInstance(live);
  await nats?.dispose();
});

describe('access and input', () => {
  it('both routes need an admin', async () => {
    expect((await call(live, '/api/admin/feature-recommendations', false)).status).toBe(401);
    expect((await call(live, '/api/admin/feature-insights', false)).status).toBe(401);
  });

  it('an unknown page is a 400 with {error, message}', async () => {
    const r = await call(live, '/api/admin/feature-recommendations?page=nowhere');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: expect.any(String), message: expect.stringContaining('page') });
  });

  it('with no activity yet: every feature, a summary that says so, labelled local', async () => {
    const rec = await call(live, '/api/admin/feature-recommendations?page=dashboard');
    expect(rec.status).toBe(200);
    const body = rec.body as FeatureRecommendationsResponse;
    expect(body.userActivity).toEqual({
      addressBooksCount: 0,
      contactsCount: 0,
      campaignsCount: 0,
      recentActions: [],
    });
    expect(body.recommendations).toHaveLength(9);
    const insights = (await call(live, '/api/admin/feature-insights')).body as FeatureInsightsResponse;
    expect(insights.provider).toBe('local');
    expect(insights.insights.summary).toMatch(/^No activity recorded yet/);
  });
});

describe('events in → projection → recommendations', () => {
  it('counts what happened and recommends from it', async () => {
    // Audience: the default book and a book of leads with 1,240 imported contacts.
    await publish(
      'email.address_book.created',
      { id: 1, name: 'Default', isDefault: true, createdAt: iso(-10 * DAY_MS) },
      iso(-10 * DAY_MS),
    );
    await publish(
      'email.address_book.created',
      { id: 2, name: 'Leads', isDefault: false, createdAt: iso(-9 * DAY_MS) },
      iso(-9 * DAY_MS),
    );
    await publish(
      'email.import.completed',
      {
        importId: randomUUID(),
        addressBookId: 2,
        kind: 'csv',
        rowsRead: 1250,
        imported: 1240,
        updated: 0,
        skipped: 10,
        errorCount: 0,
        contactCount: 1240,
        completedAt: iso(-8 * DAY_MS),
      },
      iso(-8 * DAY_MS),
    );
    // A campaign sent in test mode only.
    await publish(
      'email.campaign.sent',
      {
        campaignId: '7',
        name: 'Spring offer',
        recipients: 2,
        sent: 2,
        failed: 0,
        test: true,
        sentAt: iso(-7 * DAY_MS),
      },
      iso(-7 * DAY_MS),
    );
    // Posts: two published, none sent as a newsletter.
    await publish(
      'blog.post.published',
      { post: post('p1', 'Voice agents for clinics', 'published', -6 * DAY_MS) },
      iso(-6 * DAY_MS),
    );
    await publish(
      'blog.post.published',
      { post: post('p2', 'After-hours calls', 'published', -5 * DAY_MS) },
      iso(-5 * DAY_MS),
    );
    // Bookings: one left 'confirmed' two days after its slot, one followed up.
    await publish(
      'booking.booking.created',
      booking('b1', 'confirmed', -2 * DAY_MS, -4 * DAY_MS),
      iso(-4 * DAY_MS),
    );
    await publish(
      'booking.booking.created',
      booking('b2', 'confirmed', -3 * DAY_MS, -4 * DAY_MS),
      iso(-4 * DAY_MS),
    );
    await publish(
      'booking.booking.status_changed',
      { booking: booking('b2', 'completed', -3 * DAY_MS, -4 * DAY_MS), previousStatus: 'confirmed' },
      iso(-2.5 * DAY_MS),
    );
    // Three demo calls.
    for (const [n, id] of ['c1', 'c2', 'c3'].entries())
      await publish(
        'voice.call.completed',
        { conversation: call_(id, 'demo', -(3 - n) * 3600_000) },
        iso(-(3 - n) * 3600_000),
      );
    await caughtUp(live);

    const r = await call(live, '/api/admin/feature-recommendations?page=email');
    expect(r.status).toBe(200);
    const body = r.body as FeatureRecommendationsResponse;
    expect(body.userActivity).toMatchObject({ addressBooksCount: 2, contactsCount: 1240, campaignsCount: 0 });
    // Newest first, in words, without personal data.
    expect(body.userActivity.recentActions[0]).toEqual({
      kind: 'call',
      description: 'Demo call completed (1 min 4 s)',
      occurredAt: iso(-1 * 3600_000),
    });
    const words = body.userActivity.recentActions.map((a) => a.description);
    expect(words).toContain('Booking marked completed (was confirmed)');
    expect(words).toContain('Post “After-hours calls” published');
    expect(JSON.stringify(body)).not.toContain('Jane');

    const byId = new Map(body.recommendations.map((x) => [x.id, x]));
    // Contacts but only a test-mode campaign: high; and the email page lifts it by 5.
    expect(byId.get('email-campaigns')).toMatchObject({
      relevanceScore: 95,
      urgencyLevel: 'high',
      status: 'recommended',
    });
    expect(byId.get('email-campaigns')?.reason).toContain('1 campaign went out in test mode only');
    expect(byId.get('newsletters')).toMatchObject({ relevanceScore: 92, urgencyLevel: 'high' });
    expect(byId.get('newsletters')?.reason).toContain('2 posts');
    expect(byId.get('booking-follow-up')).toMatchObject({ relevanceScore: 87, urgencyLevel: 'high' });
    expect(byId.get('booking-follow-up')?.reason).toContain("1 booking is still 'confirmed'");
    // Three demo calls, two bookings: not below a quarter, so no longer "underused".
    expect(byId.get('ai-follow-up-calls')?.status).toBe('trending');
    expect(body.recommendations[0]?.id).toBe('email-campaigns');

    const insights = (await call(live, '/api/admin/feature-insights')).body as FeatureInsightsResponse;
    expect(insights.provider).toBe('local');
    expect(insights.insights.summary).toBe(
      'So far: 2 bookings (1 awaiting an outcome), 3 calls, 2 published posts and 1,240 contacts in 2 address books. Most relevant now: Blog-to-Newsletter — you published 2 posts; none has gone out as a newsletter.',
    );
    // Insights are not about one screen: no page lift, so the newsletter (92) leads.
    expect(insights.insights.nextSteps.map((s) => s.featureId)).toEqual([
      'newsletters',
      'email-campaigns',
      'booking-follow-up',
    ]);
  });

  it('a newsletter sent in test mode only: the feed and the suggestion agree that it was a test', async () => {
    await publish(
      'email.newsletter.sent',
      {
        newsletterId: '4',
        name: 'Dry run',
        blogPostId: 'p2',
        recipients: 2,
        sent: 2,
        failed: 0,
        test: true,
        sentAt: iso(-0.8 * DAY_MS),
      },
      iso(-0.8 * DAY_MS),
    );
    await caughtUp(live);
    const body = (await call(live, '/api/admin/feature-recommendations'))
      .body as FeatureRecommendationsResponse;
    const feed = body.userActivity.recentActions.map((a) => a.description);
    expect(feed).toContain('Newsletter “Dry run” sent in test mode to 2 recipients');
    const newsletters = body.recommendations.find((x) => x.id === 'newsletters');
    expect(newsletters?.reason).toContain('went out in test mode only, none live to your contacts yet');
    expect(newsletters?.reason).not.toContain('none has gone out');
  });

  it('a live campaign and a newsletter change the answer', async () => {
    await publish(
      'email.campaign.sent',
      {
        campaignId: '7',
        name: 'Spring offer',
        recipients: 1240,
        sent: 1238,
        failed: 2,
        test: false,
        sentAt: iso(-1 * DAY_MS),
      },
      iso(-1 * DAY_MS),
    );
    await publish(
      'email.newsletter.sent',
      {
        newsletterId: '3',
        name: 'Clinics',
        blogPostId: 'p1',
        recipients: 1240,
        sent: 1240,
        failed: 0,
        sentAt: iso(-0.5 * DAY_MS),
      },
      iso(-0.5 * DAY_MS),
    );
    await caughtUp(live);
    const body = (await call(live, '/api/admin/feature-recommendations'))
      .body as FeatureRecommendationsResponse;
    expect(body.userActivity.campaignsCount).toBe(1);
    const byId = new Map(body.recommendations.map((x) => [x.id, x]));
    expect(byId.get('email-campaigns')).toMatchObject({ status: 'trending', urgencyLevel: 'low' });
    // p2 has not gone out as a newsletter.
    expect(byId.get('newsletters')).toMatchObject({ status: 'underused', relevanceScore: 74 });
    expect(byId.get('campaign-analytics')).toMatchObject({ status: 'recommended', relevanceScore: 60 });
  });
});

describe("the settings service's own data", () => {
  it('a saved website that Brand Intelligence has not read yet: high', async () => {
    await saveWebsite(live);
    const body = (await call(live, '/api/admin/feature-recommendations'))
      .body as FeatureRecommendationsResponse;
    expect(body.recommendations.find((x) => x.id === 'brand-intelligence')).toMatchObject({
      relevanceScore: 80,
      urgencyLevel: 'high',
      status: 'recommended',
      actionUrl: '/admin/settings',
    });
  });
});

describe('late, out-of-order and repeated events', () => {
  it('keeps each aggregate at its newest known state whatever the arrival order', async () => {
    // A post deleted, then (late) its publication and unpublication arrive.
    await publish('blog.post.deleted', { id: 'p9', slug: 'gone' }, iso(-1 * 3600_000));
    await publish(
      'blog.post.published',
      { post: post('p9', 'Gone soon', 'published', -3 * 3600_000) },
      iso(-3 * 3600_000),
    );
    await publish(
      'blog.post.unpublished',
      { post: post('p9', 'Gone later', 'draft', -3 * 3600_000) },
      iso(-2 * 3600_000),
    );
    // A booking's status change arrives before its creation.
    await publish(
      'booking.booking.status_changed',
      { booking: booking('b3', 'no_show', -5 * 3600_000, -2 * DAY_MS), previousStatus: 'confirmed' },
      iso(-4 * 3600_000),
    );
    await publish(
      'booking.booking.created',
      booking('b3', 'confirmed', -5 * 3600_000, -2 * DAY_MS),
      iso(-2 * DAY_MS),
    );
    // A book deleted, then a late import into it and its creation.
    await publish(
      'email.address_book.deleted',
      { id: 5, name: 'Old list', contactCount: 40, deletedAt: iso(-1 * DAY_MS) },
      iso(-1 * DAY_MS),
    );
    await publish(
      'email.import.completed',
      {
        importId: randomUUID(),
        addressBookId: 5,
        kind: 'manual',
        rowsRead: 40,
        imported: 40,
        updated: 0,
        skipped: 0,
        errorCount: 0,
        contactCount: 40,
        completedAt: iso(-2 * DAY_MS),
      },
      iso(-2 * DAY_MS),
    );
    await publish(
      'email.address_book.created',
      { id: 5, name: 'Old list', isDefault: false, createdAt: iso(-3 * DAY_MS) },
      iso(-3 * DAY_MS),
    );
    await caughtUp(live);

    const snap = await live.repo.snapshot();
    expect(snap.activity_posts?.find((p) => (p as { post_id: string }).post_id === 'p9')).toMatchObject({
      status: 'deleted',
      title: 'Gone later',
    });
    expect(
      snap.activity_bookings?.find((b) => (b as { booking_id: string }).booking_id === 'b3'),
    ).toMatchObject({
      status: 'no_show',
    });
    expect(snap.activity_address_books?.find((b) => (b as { book_id: number }).book_id === 5)).toMatchObject({
      name: 'Old list',
      contact_count: 40,
      imports: 1,
    });
    const book5 = snap.activity_address_books?.find((b) => (b as { book_id: number }).book_id === 5) as {
      deleted_at: Date | null;
    };
    expect(book5.deleted_at).not.toBeNull();
    // The deleted book and its contacts are not counted; the deleted post is not published.
    const body = (await call(live, '/api/admin/feature-recommendations'))
      .body as FeatureRecommendationsResponse;
    expect(body.userActivity).toMatchObject({ addressBooksCount: 2, contactsCount: 1240 });
    expect(body.recommendations.find((x) => x.id === 'newsletters')?.reason).toContain('1 published post');
  });

  it('applies a redelivered event once', async () => {
    const importEvent = published.find((e) => e.subject === 'email.import.completed') as EventEnvelope;
    const campaign = published.find(
      (e) => e.subject === 'email.campaign.sent' && (e.payload as { test: boolean }).test === false,
    ) as EventEnvelope;
    const before = await live.repo.snapshot();
    const leads = () =>
      (before.activity_address_books ?? []).find((b) => (b as { book_id: number }).book_id === 2);
    expect(leads()).toMatchObject({ imports: 1, imported_contacts: 1240 });

    // The same envelopes reach the stream again (a relay that crashed before marking them).
    await publishAgainWithoutDedupe(importEvent);
    await publishAgainWithoutDedupe(campaign);
    // Then newer events of the same aggregates: handled after the duplicates (one aggregate's
    // events are handled in order), so once they show, the duplicates have been handled too.
    await publish(
      'email.import.completed',
      {
        importId: randomUUID(),
        addressBookId: 2,
        kind: 'csv',
        rowsRead: 10,
        imported: 10,
        updated: 0,
        skipped: 0,
        errorCount: 0,
        contactCount: 1250,
        completedAt: iso(-60_000),
      },
      iso(-60_000),
    );
    await publish(
      'email.campaign.sent',
      {
        campaignId: '7',
        name: 'Spring offer (resend)',
        recipients: 10,
        sent: 10,
        failed: 0,
        test: false,
        sentAt: iso(-30_000),
      },
      iso(-30_000),
    );
    // caughtUp waits for every message, the two duplicates included, to be acknowledged.
    await caughtUp(live);
    const after = await live.repo.snapshot();
    expect(after.activity_address_books?.find((b) => (b as { book_id: number }).book_id === 2)).toMatchObject(
      {
        imports: 2,
        imported_contacts: 1250,
        contact_count: 1250,
      },
    );
    expect(after.activity_mailings?.find((m) => (m as { kind: string }).kind === 'campaign')).toMatchObject({
      name: 'Spring offer (resend)',
      live_sends: 2,
      test_sends: 1,
      recipients: 1250,
      sent: 1248,
      failed: 2,
    });
    const { rows } = await live.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "activity_log" WHERE "event_id" = ANY($1::uuid[])`,
      [[importEvent.id, campaign.id]],
    );
    expect(rows[0]?.n).toBe(2);
  });
});

describe('rebuilt from the streams', () => {
  let rebuilt: Instance | undefined;
  afterAll(() => stopInstance(rebuilt));

  it('a second instance on a fresh database builds the same projection as the live one', async () => {
    const liveSnapshot = await live.repo.snapshot();
    expect(liveSnapshot.activity_log?.length).toBe(new Set(published.map((e) => e.id)).size);
    rebuilt = await startSettings('settings_activity_rebuilt');
    const durables = async (i: Instance) =>
      Object.keys(await i.svc.bus.lag()).filter((d) => d.startsWith('settings-activity'));
    // A new database is a new generation: its own durable, reading every stream from the start.
    expect(await durables(rebuilt)).not.toEqual(await durables(live));
    await caughtUp(rebuilt);
    expect(await rebuilt.repo.snapshot()).toEqual(liveSnapshot);
    // The answers agree too, once the settings store (not rebuilt from events) holds the same website.
    await saveWebsite(rebuilt);
    const strip = (b: FeatureRecommendationsResponse) => ({ ...b, generatedAt: null });
    const [a, b] = await Promise.all([
      call(live, '/api/admin/feature-recommendations?page=bookings'),
      call(rebuilt, '/api/admin/feature-recommendations?page=bookings'),
    ]);
    expect(strip(b.body)).toEqual(strip(a.body));
  });
});
