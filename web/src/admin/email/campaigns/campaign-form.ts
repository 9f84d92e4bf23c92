import { type Campaign, type CampaignInput, SUBJECT_TIP_LENGTH } from '@parley/contracts';
import { isEmail } from '../../../lib/email.ts';

/** The create/edit form's fields and rules (email marketing §5). */

export interface CampaignForm {
  name: string;
  subject: string;
  fromName: string;
  fromEmail: string;
  htmlContent: string;
  textContent: string;
  /** A datetime-local value ('' = not scheduled). */
  scheduledAt: string;
  addressBookIds: number[];
  contactIds: number[];
  segmentIds: number[];
}

export type FormErrors = Partial<Record<'name' | 'subject' | 'fromName' | 'fromEmail', string>>;

/** The spec's messages, the same the service answers with. */
export function validateCampaign(f: CampaignForm): FormErrors {
  const errors: FormErrors = {};
  if (!f.name.trim()) errors.name = 'Name is required';
  if (!f.subject.trim()) errors.subject = 'Subject is required';
  if (!f.fromName.trim()) errors.fromName = 'From name is required';
  if (!f.fromEmail.trim()) errors.fromEmail = 'From email is required';
  else if (!isEmail(f.fromEmail.trim())) errors.fromEmail = 'Please enter a valid from email address';
  return errors;
}

/** The tip of §5: shown while the subject is 50 characters or longer. */
export const subjectTooLong = (subject: string) => subject.trim().length >= SUBJECT_TIP_LENGTH;

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time as a datetime-local value in the browser's zone. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function formOf(c: Campaign | null, defaults: { fromName: string; fromEmail: string }): CampaignForm {
  return {
    name: c?.name ?? '',
    subject: c?.subject ?? '',
    fromName: c?.fromName ?? defaults.fromName,
    fromEmail: c?.fromEmail ?? defaults.fromEmail,
    htmlContent: c?.htmlContent ?? '',
    textContent: c?.textContent ?? '',
    scheduledAt: toLocalInput(c?.scheduledAt ?? null),
    addressBookIds: c?.targetAddressBookIds ?? [],
    contactIds: c?.targetContactIds ?? [],
    segmentIds: c?.targetSegmentIds ?? [],
  };
}

export function inputOf(f: CampaignForm): CampaignInput {
  return {
    name: f.name.trim(),
    subject: f.subject.trim(),
    fromName: f.fromName.trim(),
    fromEmail: f.fromEmail.trim(),
    htmlContent: f.htmlContent,
    textContent: f.textContent || null,
    scheduledAt: f.scheduledAt ? new Date(f.scheduledAt).toISOString() : null,
    targetAddressBooks: f.addressBookIds,
    targetContacts: f.contactIds,
    targetSegments: f.segmentIds,
  };
}
