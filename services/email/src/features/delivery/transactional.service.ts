import { type Booking, DEFAULT_SCHEDULE, type EventOf } from '@parley/contracts';
import { claimEvent, type ServiceDeps } from '@parley/kit';
import type { EmailDb } from '../../db.ts';
import { buildIcs, sequenceOf } from './domain/ics.ts';
import {
  adminInvitation,
  bookingCancellation,
  bookingConfirmation,
  bookingNotification,
  contactNotification,
} from './domain/messages.ts';
import type { MailRepository } from './mail.repository.ts';
import type { Mailer, MailRequest } from './mailer.service.ts';

/**
 * Transactional mail from events. Each consumer plans its messages, records them with the
 * inbox claim in one transaction (one message per event, purpose and recipient: a redelivery
 * records nothing new), then sends what is still pending. A temporary failure throws, so the
 * kit's retry policy redelivers the event and only the unsent messages go out; a permanent
 * refusal is recorded against the recipient and not retried. A message interrupted mid-send
 * is never sent twice (at most once).
 */

/** UID host of booking invitations: fixed, so a CANCEL always matches its REQUEST. */
const UID_DOMAIN = 'parley';

export async function registerTransactional(opts: {
  deps: ServiceDeps;
  db: EmailDb;
  mail: MailRepository;
  mailer: Mailer;
}) {
  const { deps, db, mail, mailer } = opts;

  async function handle(durable: string, event: { id: string }, plan: () => Promise<MailRequest[]>) {
    if (!(await mail.handled(durable, event.id))) {
      const requests = await plan();
      const mails = await Promise.all(requests.map((r) => mailer.compose({ ...r, eventId: event.id })));
      await db.$transaction(async (tx) => {
        if (await claimEvent(tx, durable, event.id)) await mail.insert(tx, mails);
      });
    }
    await mailer.deliverEvent(event.id);
  }

  const invitationFor = async (
    booking: Booking,
    method: 'REQUEST' | 'CANCEL',
    sequence: number,
    stamp: Date,
  ): Promise<{ method: 'REQUEST' | 'CANCEL'; content: string }> => {
    // The organizer is the sender: the address the invitation comes From (calendars check it).
    const [brand, from] = await Promise.all([mailer.brand(), mailer.sender()]);
    return {
      method,
      content: buildIcs({
        method,
        bookingId: booking.id,
        sequence,
        start: new Date(booking.timeSlot),
        minutes: DEFAULT_SCHEDULE.slotMinutes,
        timeZone: booking.timeZone || DEFAULT_SCHEDULE.timeZone,
        summary: `${brand.name} demo`,
        description: `Your ${brand.name} demo call with ${booking.name}${booking.company ? ` (${booking.company})` : ''}. Our team calls you at this time.`,
        location: booking.phone ? `Phone call to ${booking.phone}` : 'Phone call',
        organizer: { name: from.name || brand.name, email: from.address },
        attendees: attendeesOf(booking),
        stamp,
        uidDomain: UID_DOMAIN,
      }),
    };
  };

  await deps.consume({
    durable: 'email-booking-mail',
    subjects: ['booking.booking.created', 'booking.booking.status_changed'],
    handler: async (event: EventOf<'booking.booking.created' | 'booking.booking.status_changed'>) => {
      await handle('email-booking-mail', event, async () => {
        const brand = await mailer.brand();
        const occurred = new Date(event.occurredAt);
        if (event.subject === 'booking.booking.created') {
          const booking = event.payload;
          const calendar = await invitationFor(booking, 'REQUEST', 0, occurred);
          const support = await mailer.supportAddress();
          return [
            ...attendeesOf(booking).map(
              (a, i): MailRequest => ({
                kind: 'booking_confirmation',
                to: { name: a.name, address: a.email },
                content: bookingConfirmation(booking, { name: a.name, guest: i > 0 }, brand),
                dedupeKey: `${event.id}:confirmation:${a.email.toLowerCase()}`,
                calendar,
                replyTo: support,
              }),
            ),
            {
              kind: 'booking_notification',
              to: { address: support },
              content: bookingNotification(booking, brand, `${mailer.origin}/bookings-admin`),
              dedupeKey: `${event.id}:notification`,
              replyTo: booking.email,
              autoSubmitted: true,
            },
          ];
        }
        const { booking, previousStatus } = event.payload;
        const cancelled = booking.status === 'cancelled' && previousStatus !== 'cancelled';
        const reopened = previousStatus === 'cancelled' && booking.status !== 'cancelled';
        if (!cancelled && !reopened) return [];
        const sequence = sequenceOf(new Date(booking.createdAt), occurred);
        const calendar = await invitationFor(booking, cancelled ? 'CANCEL' : 'REQUEST', sequence, occurred);
        return attendeesOf(booking).map(
          (a, i): MailRequest => ({
            kind: cancelled ? 'booking_cancellation' : 'booking_confirmation',
            to: { name: a.name, address: a.email },
            content: cancelled
              ? bookingCancellation(booking, { name: a.name }, brand)
              : bookingConfirmation(booking, { name: a.name, guest: i > 0 }, brand),
            dedupeKey: `${event.id}:${cancelled ? 'cancellation' : 'confirmation'}:${a.email.toLowerCase()}`,
            calendar,
          }),
        );
      });
    },
  });

  await deps.consume({
    durable: 'email-contact-mail',
    subjects: ['booking.contact.submitted'],
    handler: async (event) => {
      await handle('email-contact-mail', event, async () => {
        const brand = await mailer.brand();
        return [
          {
            kind: 'contact_notification',
            to: { address: await mailer.supportAddress() },
            content: contactNotification(event.payload, brand, `${mailer.origin}/bookings-admin`),
            dedupeKey: `${event.id}:notification`,
            replyTo: event.payload.email,
            autoSubmitted: true,
          },
        ];
      });
    },
  });

  await deps.consume({
    durable: 'email-admin-invitation',
    subjects: ['identity.admin.invited'],
    handler: async (event) => {
      await handle('email-admin-invitation', event, async () => {
        const invite = event.payload;
        // The link is a secret: it goes into the mail only, never into a log line.
        const link = /^https?:\/\//i.test(invite.invitationUrl)
          ? invite.invitationUrl
          : `${mailer.origin}${invite.invitationUrl.startsWith('/') ? '' : '/'}${invite.invitationUrl}`;
        return [
          {
            kind: 'admin_invitation',
            to: { name: `${invite.firstName} ${invite.lastName}`.trim(), address: invite.email },
            content: adminInvitation(invite, link, await mailer.brand()),
            dedupeKey: `${event.id}:invitation`,
          },
        ];
      });
    },
  });
}

/** The visitor first, then each guest (distinct addresses). */
function attendeesOf(booking: Booking): Array<{ name: string; email: string }> {
  const seen = new Set<string>();
  const out: Array<{ name: string; email: string }> = [];
  for (const a of [{ name: booking.name, email: booking.email }, ...booking.guests]) {
    const key = a.email.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(a);
  }
  return out;
}
