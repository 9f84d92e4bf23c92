import type { AdminInvitedEvent, Booking, ContactRequest } from '@parley/contracts';
import type { MailContent } from './templates.ts';

/**
 * What each transactional mail says. Pure: the event in, the content out; the mail module
 * renders, addresses and sends it.
 */

export interface Brand {
  name: string;
  website: string;
}

export function formatSlot(iso: string, timeZone: string): string {
  const d = new Date(iso);
  const date = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  }).format(d);
  const time = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(d);
  return `${date} at ${time}`;
}

const firstName = (name: string) => name.trim().split(/\s+/)[0] || name;

export function bookingConfirmation(
  booking: Booking,
  recipient: { name: string; guest: boolean },
  brand: Brand,
): MailContent {
  const when = formatSlot(booking.timeSlot, booking.timeZone);
  const intro = recipient.guest
    ? `${booking.name} invited you to a ${brand.name} demo.`
    : `Thanks for booking a demo with ${brand.name}. We look forward to talking with you.`;
  return {
    subject: `Your ${brand.name} demo is confirmed: ${when}`,
    preheader: `${when}. The calendar invitation is attached.`,
    heading: `Hi ${firstName(recipient.name)}, your demo is booked`,
    paragraphs: [
      intro,
      'The calendar invitation is attached: open it to add the demo to your calendar. Our team will call you at the time below.',
    ],
    details: [
      ['When', when],
      ['Length', '30 minutes'],
      ['Booked by', booking.company ? `${booking.name}, ${booking.company}` : booking.name],
      ...(booking.guests.length
        ? ([['Guests', booking.guests.map((g) => g.name || g.email).join(', ')]] as Array<[string, string]>)
        : []),
    ],
    button: { label: `Visit ${brand.name}`, url: brand.website },
    footer: `You receive this mail because a demo was booked with this address on ${brand.website}. Need to change it? Reply to this mail.`,
    brand: brand.name,
  };
}

export function bookingCancellation(
  booking: Booking,
  recipient: { name: string },
  brand: Brand,
): MailContent {
  const when = formatSlot(booking.timeSlot, booking.timeZone);
  return {
    subject: `Cancelled: your ${brand.name} demo on ${when}`,
    preheader: 'The demo was cancelled; the calendar event is removed.',
    heading: `Hi ${firstName(recipient.name)}, your demo was cancelled`,
    paragraphs: [
      `The ${brand.name} demo planned for ${when} was cancelled. The attached update removes it from your calendar.`,
      'Want another time? Book a new slot on our site whenever it suits you.',
    ],
    details: [['Was planned for', when]],
    button: { label: 'Book another time', url: `${brand.website.replace(/\/+$/, '')}/book-demo` },
    footer: `You receive this mail because a demo was booked with this address on ${brand.website}.`,
    brand: brand.name,
  };
}

export function bookingNotification(booking: Booking, brand: Brand, adminUrl: string): MailContent {
  const when = formatSlot(booking.timeSlot, booking.timeZone);
  return {
    subject: `New demo booking: ${booking.name}${booking.company ? ` (${booking.company})` : ''}, ${when}`,
    preheader: `${booking.name} booked a demo for ${when}.`,
    heading: 'A demo was booked',
    paragraphs: [`${booking.name} booked a demo on the site.`],
    details: [
      ['When', when],
      ['Name', booking.name],
      ['Email', booking.email],
      ['Phone', booking.phone ?? '—'],
      ['Company', booking.company ?? '—'],
      [
        'Guests',
        booking.guests.length ? booking.guests.map((g) => `${g.name} <${g.email}>`).join('\n') : '—',
      ],
      ['Notes', booking.notes ?? '—'],
    ],
    button: { label: 'Open booking management', url: adminUrl },
    footer: `${brand.name} back office notification.`,
    brand: brand.name,
  };
}

export function contactNotification(contact: ContactRequest, brand: Brand, adminUrl: string): MailContent {
  return {
    subject: `New contact request: ${contact.firstName} ${contact.lastName} (${contact.company})`,
    preheader: contact.message ? contact.message.slice(0, 120) : `${contact.company} wrote in.`,
    heading: 'A contact request came in',
    paragraphs: [`${contact.firstName} ${contact.lastName} from ${contact.company} sent the contact form.`],
    details: [
      ['Name', `${contact.firstName} ${contact.lastName}`],
      ['Email', contact.email],
      ['Company', contact.company],
      ['Company size', contact.companySize ?? '—'],
      ['Message', contact.message ?? '—'],
    ],
    button: { label: 'Open contact requests', url: adminUrl },
    footer: `${brand.name} back office notification.`,
    brand: brand.name,
  };
}

export function adminInvitation(invite: AdminInvitedEvent, link: string, brand: Brand): MailContent {
  const expires = new Intl.DateTimeFormat('en-US', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'America/New_York',
  }).format(new Date(invite.expiresAt));
  const role = invite.role === 'super_admin' ? 'a super admin' : 'an admin';
  return {
    subject: `You're invited to the ${brand.name} back office`,
    preheader: `Choose your password to sign in. The link works until ${expires} ET.`,
    heading: `Welcome, ${invite.firstName}`,
    paragraphs: [
      `You were invited as ${role} of the ${brand.name} back office. Choose your password with the button below to sign in.`,
      `The link works once and until ${expires} ET. If you did not expect this invitation, ignore this mail.`,
    ],
    button: { label: 'Accept the invitation', url: link },
    footer: `Sent to ${invite.email} because an administrator invited this address.`,
    brand: brand.name,
  };
}

export function testEmail(brand: Brand, transport: string): MailContent {
  return {
    subject: `${brand.name} test email`,
    preheader: 'Your email configuration works.',
    heading: 'Your email configuration works',
    paragraphs: [
      `This test email was sent from the ${brand.name} settings screen through the ${transport} transport.`,
    ],
    footer: `${brand.name} settings test.`,
    brand: brand.name,
  };
}

export function testTrackingEmail(brand: Brand): Omit<MailContent, 'unsubscribeUrl'> {
  return {
    subject: `${brand.name} tracking test`,
    preheader: 'Open this mail and click the link to test tracking.',
    heading: 'Tracking test',
    paragraphs: [
      'Opening this mail records an open (the image at the end); clicking the button below records a click and takes you to the site.',
    ],
    button: { label: `Visit ${brand.name}`, url: brand.website },
    footer: `${brand.name} tracking test, sent from the settings screen.`,
    brand: brand.name,
  };
}
