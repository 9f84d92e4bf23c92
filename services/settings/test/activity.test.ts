import { randomUUID } from 'node:crypto';
import { eventPayloadProblem, isEventSubject } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { type ActivityEvent, describeAction, logDataOf, plural, versionOf } from '../src/domain/activity.ts';
import { CONSUMES } from '../src/events.ts';
import { activityDurable } from '../src/services/activity-projection.ts';

/** The projection's pure half: versions, what the log keeps, and how it reads. */

const at = '2026-11-20T10:00:00.000Z';
const ev = (subject: ActivityEvent['subject'], payload: unknown, occurredAt = at, id = randomUUID()) =>
  ({ id, subject, occurredAt, payload }) as ActivityEvent;

describe('versions', () => {
  it('order by time first, whatever the ids', () => {
    const early = versionOf(
      ev(
        'booking.booking.status_changed',
        {},
        '2026-11-20T10:00:00Z',
        'ffffffff-0000-4000-8000-000000000000',
      ),
    );
    const late = versionOf(
      ev('booking.booking.created', {}, '2026-11-20T10:00:00.001Z', '00000000-0000-4000-8000-000000000000'),
    );
    expect(early < late).toBe(true);
  });

  it('normalise the time, so text order is time order whatever the producer wrote', () => {
    const id = randomUUID();
    expect(versionOf(ev('voice.call.completed', {}, '2026-11-20T11:00:00+01:00', id))).toBe(
      versionOf(ev('voice.call.completed', {}, '2026-11-20T10:00:00.000Z', id)),
    );
  });

  it('at the same instant a status change outranks the creation, a deletion everything', () => {
    const id = randomUUID();
    const created = versionOf(ev('booking.booking.created', {}, at, id));
    const changed = versionOf(ev('booking.booking.status_changed', {}, at, id));
    expect(created < changed).toBe(true);
    const published = versionOf(ev('blog.post.published', {}, at, 'ffffffff-ffff-4fff-8fff-ffffffffffff'));
    const deleted = versionOf(ev('blog.post.deleted', {}, at, '00000000-0000-4000-8000-000000000000'));
    expect(published < deleted).toBe(true);
  });

  it('refuse an event without a valid time', () => {
    expect(() => versionOf(ev('voice.call.completed', {}, 'yesterday'))).toThrow(/occurredAt/);
  });
});

describe('the log', () => {
  it('keeps no personal data of a booking or a call', () => {
    const booking = {
      id: 'b1',
      name: 'Jane Roe',
      email: 'jane@example.com',
      phone: '+12025550123',
      company: 'Acme',
      timeSlot: at,
      timeZone: 'America/New_York',
      status: 'confirmed',
      notes: 'call me',
      guests: [],
      createdAt: at,
    };
    expect(eventPayloadProblem('booking.booking.created', booking)).toBeNull();
    const data = JSON.stringify(logDataOf(ev('booking.booking.created', booking)));
    for (const secret of ['Jane', 'jane@', '555', 'Acme', 'call me']) expect(data).not.toContain(secret);
    const call = {
      conversation: {
        id: 'c1',
        callSid: 'CA1',
        phone: '+12025550123',
        status: 'completed',
        duration: 75,
        transcript: ['Hello Jane'],
        kind: 'demo',
        simulated: true,
        createdAt: at,
      },
    };
    expect(eventPayloadProblem('voice.call.completed', call)).toBeNull();
    const callData = JSON.stringify(logDataOf(ev('voice.call.completed', call)));
    expect(callData).not.toContain('555');
    expect(callData).not.toContain('Jane');
  });

  it('reads as a sentence for each subject', () => {
    const say = (data: Parameters<typeof describeAction>[0]['data'], names = new Map<number, string>()) =>
      describeAction({ data, occurredAt: new Date(at) }, names);
    expect(say({ subject: 'booking.booking.created', status: 'confirmed' })).toEqual({
      kind: 'booking',
      description: 'New demo booking',
      occurredAt: at,
    });
    expect(
      say({
        subject: 'booking.booking.status_changed',
        status: 'qualified_lead',
        previousStatus: 'confirmed',
      }).description,
    ).toBe('Booking marked qualified lead (was confirmed)');
    expect(
      say({ subject: 'voice.call.completed', kind: 'demo', status: 'completed', durationSeconds: 130 })
        .description,
    ).toBe('Demo call completed (2 min 10 s)');
    expect(
      say({ subject: 'voice.call.completed', kind: 'admin', status: 'no-answer', durationSeconds: 0 })
        .description,
    ).toBe('Outbound AI call ended: no answer');
    expect(say({ subject: 'blog.post.published', title: 'Hello' }).description).toBe(
      'Post “Hello” published',
    );
    expect(say({ subject: 'blog.post.deleted', slug: 'hello' }).description).toBe('Post /hello deleted');
    expect(say({ subject: 'email.address_book.created', name: 'Leads' })).toMatchObject({
      kind: 'address_book',
    });
    expect(
      say(
        { subject: 'email.import.completed', bookId: 4, imported: 1240, updated: 3 },
        new Map([[4, 'Leads']]),
      ).description,
    ).toBe('Imported 1,240 new contacts into “Leads”, 3 contacts updated');
    expect(say({ subject: 'email.import.completed', bookId: 9, imported: 1, updated: 0 }).description).toBe(
      'Imported 1 new contact into an address book',
    );
    expect(
      say({ subject: 'email.campaign.sent', name: 'Spring', sent: 98, failed: 2, test: false }).description,
    ).toBe('Campaign “Spring” sent to 98 recipients (2 failed)');
    expect(
      say({ subject: 'email.campaign.sent', name: 'Spring', sent: 2, failed: 0, test: true }).description,
    ).toBe('Campaign “Spring” sent in test mode to 2 recipients');
    expect(say({ subject: 'email.newsletter.sent', name: 'Weekly', sent: 1, failed: 0 })).toMatchObject({
      kind: 'newsletter',
      description: 'Newsletter “Weekly” sent to 1 recipient',
    });
    expect(
      say({ subject: 'email.newsletter.sent', name: 'Weekly', sent: 2, failed: 0, test: true }).description,
    ).toBe('Newsletter “Weekly” sent in test mode to 2 recipients');
  });

  it('plural counts with thousands separators', () => {
    expect(plural(1, 'contact')).toBe('1 contact');
    expect(plural(0, 'contact')).toBe('0 contacts');
    expect(plural(12345, 'address book')).toBe('12,345 address books');
  });
});

describe('the durable', () => {
  it('is named after the generation (a new database reads every stream again)', () => {
    expect(activityDurable('3f2a9c1e-55aa-4bb0-9c1e-000000000001')).toBe('settings-activity-3f2a9c1e55aa');
    expect(activityDurable('3f2a9c1e-55aa-4bb0-9c1e-000000000001')).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('consumes every activity subject of the brief, each known to the catalogue', () => {
    expect([...CONSUMES].sort()).toEqual(
      [
        'booking.booking.created',
        'booking.booking.status_changed',
        'voice.call.completed',
        'blog.post.published',
        'blog.post.unpublished',
        'blog.post.deleted',
        'email.address_book.created',
        'email.address_book.deleted',
        'email.import.completed',
        'email.campaign.sent',
        'email.newsletter.sent',
      ].sort(),
    );
    for (const subject of CONSUMES) expect(isEventSubject(subject), subject).toBe(true);
  });
});
