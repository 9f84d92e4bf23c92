import { randomUUID } from 'node:crypto';
import type { Booking } from '@parley/contracts';
import { diagnosticsSubject } from '@parley/contracts';
import ICAL from 'ical.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersOf } from '../src/features/delivery/domain/mime.ts';
import { type EmailUnderTest, type SmtpSink, startEmail, startSmtpSink } from './mail-peers.ts';

/**
 * Real mail delivery end to end: events on a real NATS reach the email service (real
 * PostgreSQL), which sends through the local mailbox, then through a real SMTP server once
 * the settings say so; every message is parsed back with mailparser and every invitation
 * with ical.js.
 */

let t: EmailUnderTest;
let smtp: SmtpSink;
let db: pg.Pool;

const SMTP_USER = 'mailer@parley.test';
const SMTP_PASSWORD = 'smtp secret pw';

beforeAll(async () => {
  smtp = await startSmtpSink({ users: { [SMTP_USER]: SMTP_PASSWORD } });
  t = await startEmail('email_mail');
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
});

afterAll(async () => {
  await db?.end();
  await t?.stop();
  await smtp?.close();
});

const booking = (over: Partial<Booking> = {}): Booking => ({
  id: randomUUID(),
  name: 'Ada Lovelace',
  email: `ada+${Date.now()}@example.com`,
  phone: '(555) 123-4567',
  company: 'Analytical Engines',
  // 10:30 Eastern on a winter day (EST, UTC-5) → 15:30Z.
  timeSlot: '2027-01-12T15:30:00.000Z',
  timeZone: 'America/New_York',
  status: 'confirmed',
  notes: 'Interested in <b>healthcare</b> & intake',
  guests: [{ name: 'Charles Babbage', email: `charles+${Date.now()}@example.com` }],
  createdAt: new Date().toISOString(),
  ...over,
});

async function messagesOfEvent(eventId: string) {
  const { rows } = await db.query(
    `SELECT m."id", m."kind", m."to_address", m."status", m."transport", m."attempts", m."last_error", t."status" AS tracking_status
       FROM "mail_messages" m LEFT JOIN "email_tracking" t ON t."mail_message_id" = m."id"
      WHERE m."event_id" = $1 ORDER BY m."created_at"`,
    [eventId],
  );
  return rows;
}

const receivedBy = (address: string) =>
  smtp.received.filter((r) => r.envelope.to.map((a) => a.toLowerCase()).includes(address.toLowerCase()));

function parseIcs(text: string) {
  const comp = new ICAL.Component(ICAL.parse(text));
  const tz = comp.getFirstSubcomponent('vtimezone');
  if (tz) ICAL.TimezoneService.register(tz);
  const vevent = comp.getFirstSubcomponent('vevent');
  if (!vevent) throw new Error('no VEVENT');
  const event = new ICAL.Event(vevent);
  return { comp, vevent, event, tz };
}

describe('the local mailbox (no SMTP configured)', () => {
  it('keeps a contact notification as real MIME, readable in the Sent mail API, and reports itself', async () => {
    const eventId = await t.publish('booking.contact.submitted', {
      id: randomUUID(),
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      company: 'Compilers <Inc>',
      companySize: '51-200',
      message: 'Please call me about "voice" agents',
      createdAt: new Date().toISOString(),
    });
    await expect
      .poll(async () => (await messagesOfEvent(eventId))[0]?.status, { timeout: 20_000 })
      .toBe('sent');
    const [row] = await messagesOfEvent(eventId);
    expect(row).toMatchObject({
      kind: 'contact_notification',
      transport: 'local',
      to_address: 'sales@parley.ai',
    });
    expect(smtp.received).toHaveLength(0);

    const list = await t.call('GET', '/api/admin/email/outbox?limit=10', undefined, await t.admin());
    expect(list.status).toBe(200);
    expect(list.json.transport).toBe('local');
    expect(list.json.items[0]).toMatchObject({ id: row.id, kind: 'contact_notification', status: 'sent' });
    const detail = await t.call('GET', `/api/admin/email/outbox/${row.id}`, undefined, await t.admin());
    expect(detail.status).toBe(200);
    expect(detail.json.subject).toBe('New contact request: Grace Hopper (Compilers <Inc>)');
    expect(detail.json.raw).toMatch(/^Content-Type: multipart\/alternative/m);
    expect(detail.json.headers.find((h: { name: string }) => h.name === 'Message-ID').value).toMatch(
      /^<[^@]+@parley\.local>$/,
    );
    // Escaped in the HTML, never raw markup from the payload.
    expect(detail.json.html).toContain('Compilers &lt;Inc&gt;');
    expect(detail.json.html).not.toContain('<Inc>');
    expect(detail.json.text).toContain('Please call me about "voice" agents');
    expect(detail.json.calendar).toBeNull();

    expect((await t.call('GET', '/api/admin/email/outbox')).status).toBe(401);
    expect(
      (await t.call('GET', `/api/admin/email/outbox/${randomUUID()}`, undefined, await t.admin())).status,
    ).toBe(404);
    expect((await t.call('GET', '/api/admin/email/outbox/nope', undefined, await t.admin())).status).toBe(
      400,
    );

    const diag = (await t.bus.request(diagnosticsSubject('email'), { check: 'email-smtp' })) as Record<
      string,
      unknown
    >;
    expect(diag).toMatchObject({ status: 'warning', result: 'local mailbox: mail is not delivered' });
  });
});

describe('SMTP from the settings', () => {
  it('copies the settings from events (highest version per key, secrets sealed) and switches to SMTP', async () => {
    // Out of order on purpose: the copy keeps the highest version per key.
    await t.setting('smtp_host', '127.0.0.1', 2);
    await t.setting('smtp_host', 'old.invalid', 1);
    await t.setting('smtp_port', String(smtp.port), 1);
    await t.setting('smtp_username', SMTP_USER, 1);
    await t.setting('smtp_password', SMTP_PASSWORD, 1, { secret: true });
    await t.setting('smtp_from_email', SMTP_USER, 1);
    await t.setting('smtp_from_name', 'Parley Team', 1);
    await t.setting('support_email', 'support@parley.test', 1);
    await t.setting('brand_name', 'Parley', 1);
    await expect
      .poll(
        async () =>
          (await t.call('GET', '/api/admin/email/outbox', undefined, await t.admin())).json.transport,
        {
          timeout: 20_000,
        },
      )
      .toBe('smtp');
    const { rows } = await db.query(
      `SELECT "key", "value", "sealed_value", "version" FROM "mail_settings" ORDER BY "key"`,
    );
    expect(rows.find((r) => r.key === 'smtp_host')).toMatchObject({ value: '127.0.0.1', version: 2 });
    // The password stays sealed at rest.
    expect(rows.find((r) => r.key === 'smtp_password')).toMatchObject({ value: null });
    expect(rows.find((r) => r.key === 'smtp_password').sealed_value).toMatch(/^v1\./);
    // Wait for the copy to have everything (events of different keys arrive in any order).
    await expect
      .poll(async () => (await db.query(`SELECT count(*)::int AS n FROM "mail_settings"`)).rows[0].n)
      .toBe(8);
  });

  it('verifies the SMTP transport for real (connect, EHLO, AUTH)', async () => {
    const diag = (await t.bus.request(diagnosticsSubject('email'), { check: 'email-smtp' })) as Record<
      string,
      unknown
    >;
    expect(diag).toMatchObject({ status: 'success', result: 'Connected' });
    expect(String(diag.details)).toContain(`127.0.0.1:${smtp.port}`);
  });

  it('confirms a booking to the visitor and each guest with an .ics invitation, and notifies support', async () => {
    const b = booking();
    const eventId = await t.publish('booking.booking.created', b);
    await expect
      .poll(() => smtp.received.filter((r) => r.parsed.subject?.includes('demo')).length >= 0)
      .toBe(true);
    await expect
      .poll(async () => (await messagesOfEvent(eventId)).filter((m) => m.status === 'sent').length, {
        timeout: 20_000,
      })
      .toBe(3);

    const [visitor] = receivedBy(b.email);
    const [guest] = receivedBy(b.guests[0]!.email);
    const [support] = receivedBy('support@parley.test');
    expect(visitor && guest && support).toBeTruthy();
    for (const m of [visitor!, guest!, support!]) {
      expect(m.user).toBe(SMTP_USER);
      expect(m.envelope.from).toBe(SMTP_USER);
      expect(m.parsed.messageId).toMatch(/^<[0-9a-f-]{36}@parley\.test>$/);
      expect(m.parsed.html).toBeTruthy();
      expect(m.parsed.text).toBeTruthy();
      // Transactional mail carries no List-Unsubscribe.
      expect(m.parsed.headers.get('list-unsubscribe')).toBeUndefined();
    }
    expect(new Set([visitor, guest, support].map((m) => m!.parsed.messageId)).size).toBe(3);
    expect(visitor!.parsed.from?.value[0]).toMatchObject({ address: SMTP_USER, name: 'Parley Team' });
    expect(visitor!.parsed.subject).toBe(
      'Your Parley demo is confirmed: Tuesday, January 12, 2027 at 10:30 AM EST',
    );
    expect(visitor!.parsed.text).toContain('Hi Ada, your demo is booked');
    expect(guest!.parsed.text).toContain('Ada Lovelace invited you');
    expect(support!.parsed.subject).toContain('New demo booking: Ada Lovelace (Analytical Engines)');
    expect(support!.parsed.replyTo?.value[0]?.address).toBe(b.email);
    expect(support!.parsed.headers.get('auto-submitted')).toBe('auto-generated');
    expect(support!.parsed.html).toContain('Interested in &lt;b&gt;healthcare&lt;/b&gt; &amp; intake');
    expect(support!.parsed.attachments).toHaveLength(0);

    // The invitation: a text/calendar alternative with METHOD:REQUEST, and invite.ics attached.
    for (const m of [visitor!, guest!]) {
      const ics = m.parsed.attachments.find((a) => a.filename === 'invite.ics');
      expect(ics?.contentType).toBe('application/ics');
      const { comp, event, tz } = parseIcs(ics!.content.toString('utf8'));
      expect(comp.getFirstPropertyValue('method')).toBe('REQUEST');
      expect(event.uid).toBe(`booking-${b.id}@parley`);
      expect(event.sequence).toBe(0);
      expect(tz?.getFirstPropertyValue('tzid')).toBe('America/New_York');
      expect(event.startDate.zone?.tzid).toBe('America/New_York');
      expect(event.startDate.toString()).toBe('2027-01-12T10:30:00');
      expect(event.startDate.toJSDate().toISOString()).toBe(b.timeSlot);
      expect(event.endDate.toJSDate().getTime() - event.startDate.toJSDate().getTime()).toBe(30 * 60_000);
      // The organizer is the sender (From), not the support address replies go to.
      expect(event.organizer).toBe(`mailto:${SMTP_USER}`);
      expect(event.attendees.map((a) => a.getFirstValue())).toEqual([
        `mailto:${b.email}`,
        `mailto:${b.guests[0]!.email}`,
      ]);
    }
    const alt = visitor!.raw.toString('utf8');
    expect(alt).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/);

    // The Sent mail view shows the invitation too.
    const row = (await messagesOfEvent(eventId)).find((m) => m.to_address === b.email);
    const detail = await t.call('GET', `/api/admin/email/outbox/${row.id}`, undefined, await t.admin());
    expect(detail.json.calendar).toContain('METHOD:REQUEST');
    expect(detail.json.attachments).toEqual([expect.objectContaining({ filename: 'invite.ics' })]);

    // A cancellation: METHOD:CANCEL, the same UID, a higher SEQUENCE.
    const cancelId = await t.publish(
      'booking.booking.status_changed',
      { booking: { ...b, status: 'cancelled' }, previousStatus: 'confirmed' },
      { occurredAt: new Date(Date.parse(b.createdAt) + 90_000) },
    );
    await expect
      .poll(async () => (await messagesOfEvent(cancelId)).filter((m) => m.status === 'sent').length, {
        timeout: 20_000,
      })
      .toBe(2);
    const cancel = receivedBy(b.email).find((m) => m.parsed.subject?.startsWith('Cancelled'));
    const { comp, event } = parseIcs(
      cancel!.parsed.attachments.find((a) => a.filename === 'invite.ics')!.content.toString(),
    );
    expect(comp.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(event.uid).toBe(`booking-${b.id}@parley`);
    expect(event.sequence).toBe(90);
    expect(event.component.getFirstPropertyValue('status')).toBe('CANCELLED');

    // Another status change (not a cancellation) sends nothing.
    const other = await t.publish('booking.booking.status_changed', {
      booking: { ...b, status: 'completed' },
      previousStatus: 'confirmed',
    });
    await expect
      .poll(
        async () => (await db.query(`SELECT 1 FROM "inbox_events" WHERE "event_id" = $1`, [other])).rowCount,
      )
      .toBe(1);
    expect(await messagesOfEvent(other)).toHaveLength(0);
  });

  it('retries a temporary refusal and sends every message exactly once', async () => {
    const b = booking({
      email: `temp+${Date.now()}@example.com`,
      guests: [{ name: 'Guest', email: `slow+${Date.now()}@example.com` }],
    });
    let refusals = 0;
    smtp.rcpt = (address) => {
      if (address === b.guests[0]!.email && refusals < 2) {
        refusals++;
        return { code: 451, message: 'Try again later' };
      }
      return null;
    };
    const eventId = await t.publish('booking.booking.created', b);
    await expect
      .poll(async () => (await messagesOfEvent(eventId)).filter((m) => m.status === 'sent').length, {
        timeout: 30_000,
      })
      .toBe(3);
    smtp.rcpt = () => null;
    expect(refusals).toBe(2);
    const rows = await messagesOfEvent(eventId);
    expect(rows.find((r) => r.to_address === b.guests[0]!.email).attempts).toBe(3);
    expect(rows.find((r) => r.to_address === b.email).attempts).toBe(1);
    // Once each, though the event was delivered three times.
    expect(receivedBy(b.email)).toHaveLength(1);
    expect(receivedBy(b.guests[0]!.email)).toHaveLength(1);
    expect(
      (await db.query(`SELECT count(*)::int AS n FROM "mail_messages" WHERE "event_id" = $1`, [eventId]))
        .rows[0].n,
    ).toBe(3);
  });

  it('records a permanent refusal (5xx) as a bounce, does not retry it, and sends the rest', async () => {
    const b = booking({
      email: `ok+${Date.now()}@example.com`,
      guests: [{ name: 'Gone', email: `gone+${Date.now()}@example.com` }],
    });
    const gone = b.guests[0]!.email;
    let tries = 0;
    smtp.rcpt = (address) => {
      if (address !== gone) return null;
      tries++;
      return { code: 550, message: 'No such user here' };
    };
    const eventId = await t.publish('booking.booking.created', b);
    await expect
      .poll(
        async () =>
          (await messagesOfEvent(eventId))
            .map((m) => m.status)
            .sort()
            .join(','),
        { timeout: 20_000 },
      )
      .toBe('failed,sent,sent');
    smtp.rcpt = () => null;
    const failed = (await messagesOfEvent(eventId)).find((m) => m.status === 'failed');
    expect(failed).toMatchObject({ to_address: gone, tracking_status: 'bounced', attempts: 1 });
    expect(failed.last_error).toContain('No such user here');
    expect(tries).toBe(1);
    const state = await db.query(`SELECT "hard_bounced_at" FROM "mail_address_states" WHERE "address" = $1`, [
      gone.toLowerCase(),
    ]);
    expect(state.rows[0]?.hard_bounced_at).toBeInstanceOf(Date);
    const events = await db.query(
      `SELECT e."event_type" FROM "email_events" e JOIN "email_tracking" t ON t."tracking_id" = e."tracking_id" WHERE t."email" = $1`,
      [gone.toLowerCase()],
    );
    expect(events.rows.map((r) => r.event_type)).toEqual(['bounce']);
    const suppressed = await db.query(
      `SELECT "reason", "source" FROM "email_suppressions" WHERE "address" = $1`,
      [gone.toLowerCase()],
    );
    expect(suppressed.rows).toEqual([{ reason: 'bounced', source: 'smtp-dsn' }]);
  });

  it('sends the admin invitation with an absolute link', async () => {
    const eventId = await t.publish('identity.admin.invited', {
      adminId: randomUUID(),
      email: 'new.admin@example.com',
      firstName: 'Katherine',
      lastName: 'Johnson',
      role: 'admin',
      invitationUrl: '/admin/invite/tok_abc123',
      expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      invitedBy: null,
    });
    await expect
      .poll(async () => (await messagesOfEvent(eventId))[0]?.status, { timeout: 20_000 })
      .toBe('sent');
    const [m] = receivedBy('new.admin@example.com');
    expect(m!.parsed.subject).toBe("You're invited to the Parley back office");
    expect(m!.parsed.text).toContain('Accept the invitation: https://parley.test/admin/invite/tok_abc123');
    expect(m!.parsed.html).toContain('href="https://parley.test/admin/invite/tok_abc123"');
    // Once sent, the one-time link lives only in the recipient's mailbox: the stored copy
    // keeps the headers, and the Sent mail view shows no content.
    const [row] = await messagesOfEvent(eventId);
    const stored = await db.query(`SELECT "html", "text", "raw" FROM "mail_messages" WHERE "id" = $1`, [
      row.id,
    ]);
    expect(stored.rows[0].html).toBeNull();
    expect(stored.rows[0].raw.toString()).not.toContain('tok_abc123');
    expect(stored.rows[0].raw.toString()).toMatch(/^Subject: You're invited/m);
    expect(stored.rows[0].raw.toString()).toMatch(
      /\r\n\r\n\[content removed after sending: it held a one-time link\]$/,
    );
    const view = await t.call('GET', `/api/admin/email/outbox/${row.id}`, undefined, await t.admin());
    expect(view.json).toMatchObject({
      html: null,
      text: '[content removed after sending: it held a one-time link]',
    });
    expect(view.text).not.toContain('tok_abc123');
  });

  it('sends test emails (1–5 valid addresses) and answers the spec messages', async () => {
    const h = await t.admin();
    for (const emails of [[], ['', 'nope', '  '], ['a b@example.com']]) {
      const r = await t.call('POST', '/api/admin/settings/test-email', { emails }, h);
      expect(r.status).toBe(400);
      expect(r.json).toEqual({
        error: 'No valid emails',
        message: 'Please enter at least one valid email address',
      });
    }
    const six = Array.from({ length: 6 }, (_, i) => `t${i}@example.com`);
    expect((await t.call('POST', '/api/admin/settings/test-email', { emails: six }, h)).status).toBe(400);
    expect((await t.call('POST', '/api/admin/settings/test-email', { emails: 'x' }, h)).status).toBe(400);
    expect(
      (await t.call('POST', '/api/admin/settings/test-email', { emails: ['a@example.com'] })).status,
    ).toBe(401);
    const before = smtp.received.length;
    const ok = await t.call(
      'POST',
      '/api/admin/settings/test-email',
      { emails: ['one@example.com', 'bad', 'two@example.com', 'one@example.com'] },
      h,
    );
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({
      success: true,
      message: 'Test emails sent successfully',
      transport: 'smtp',
    });
    expect(ok.json.results.map((r: { to: string }) => r.to)).toEqual(['one@example.com', 'two@example.com']);
    expect(smtp.received.length - before).toBe(2);
    expect(receivedBy('two@example.com')[0]!.parsed.subject).toBe('Parley test email');

    smtp.rcpt = () => ({ code: 550, message: 'Relay denied' });
    const refused = await t.call(
      'POST',
      '/api/admin/settings/test-email',
      { emails: ['three@example.com'] },
      h,
    );
    smtp.rcpt = () => null;
    expect(refused.status).toBe(422);
    expect(refused.json.error).toBe('Test emails failed');
    expect(refused.json.message).toContain('Relay denied');
  });

  it('sends the tracking test as marketing mail: List-Unsubscribe (https only), one-click, tracked link and pixel', async () => {
    const h = await t.admin();
    expect((await t.call('POST', '/api/admin/email/test-tracking', { email: 'nope' }, h)).json).toEqual({
      error: 'No valid emails',
      message: 'Please enter at least one valid email address',
    });
    const r = await t.call('POST', '/api/admin/email/test-tracking', { email: 'tracker@example.com' }, h);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ success: true, message: 'Test tracking email sent' });
    const [m] = receivedBy('tracker@example.com');
    const headers = headersOf(m!.raw);
    const header = headers.find((x) => x.name === 'List-Unsubscribe')?.value;
    expect(header).toMatch(
      /^<https:\/\/parley\.test\/api\/unsubscribe\/[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}>$/,
    );
    expect(headers.find((x) => x.name === 'List-Unsubscribe-Post')?.value).toBe('List-Unsubscribe=One-Click');
    expect(m!.parsed.html).toMatch(
      /<img src="https:\/\/parley\.test\/api\/track\/open\/[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}"/,
    );
    expect(m!.parsed.html).toMatch(
      /href="https:\/\/parley\.test\/api\/track\/click\/[A-Za-z0-9_-]{22}\?u=https%3A%2F%2Fparley\.test&amp;s=/,
    );
    // The visible unsubscribe link is the same signed link, not tracked.
    expect(m!.parsed.html).toContain(`href="${header!.slice(1, header!.indexOf('>'))}"`);

    // The Sent mail view shows it without the pixel, with links to their destination.
    const detail = await t.call('GET', `/api/admin/email/outbox/${r.json.id}`, undefined, h);
    expect(detail.json.html).not.toContain('/api/track/');
    expect(detail.json.html).toContain('href="https://parley.test"');
    expect(detail.json.tracking).toMatchObject({
      trackingId: r.json.trackingId,
      status: 'sent',
      openCount: 0,
    });
  });

  it('switches back to the local mailbox when the SMTP host is removed', async () => {
    await t.setting('smtp_host', null, 3);
    await expect
      .poll(
        async () =>
          (await t.call('GET', '/api/admin/email/outbox', undefined, await t.admin())).json.transport,
        { timeout: 20_000 },
      )
      .toBe('local');
  });
});
