import { CAMPAIGN_LIMITS, type CampaignInput, SUBJECT_TIP_LENGTH } from '@parley/contracts';
import { badRequest } from '@parley/kit';
import { sanitizeEmailHtml } from '../../../shared/email-html.ts';
import { normalizeEmail } from '../../audience/domain/contacts.ts';

/** A campaign as the admin writes it: the spec's rules (§5) with its texts, and the subject tip. */

export function parseIdList(value: unknown, label: string): number[] {
  let list: unknown = value;
  if (typeof value === 'string') {
    const s = value.trim();
    if (!s) return [];
    try {
      list = JSON.parse(s);
    } catch {
      throw badRequest(`${label} must be a JSON list of ids`);
    }
  }
  if (value === undefined || value === null) return [];
  if (!Array.isArray(list)) throw badRequest(`${label} must be a list of ids`);
  const ids = list.map((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v));
  if (!ids.every((v): v is number => Number.isInteger(v) && (v as number) > 0 && (v as number) <= 2147483647))
    throw badRequest(`${label} must be a list of ids`);
  if (ids.length > CAMPAIGN_LIMITS.targets)
    throw badRequest(`${label}: at most ${CAMPAIGN_LIMITS.targets} ids`);
  return [...new Set(ids)];
}

export function subjectTip(subject: string): string | null {
  return subject.length >= SUBJECT_TIP_LENGTH
    ? `Tip: subjects under ${SUBJECT_TIP_LENGTH} characters read better on phones (this one has ${subject.length})`
    : null;
}

/** What validateInput keeps of an input, ready for the columns. */
export interface CleanInput {
  name?: string;
  subject?: string;
  fromName?: string;
  fromEmail?: string;
  htmlContent?: string;
  textContent?: string | null;
  scheduledAt?: Date | null;
  targetAddressBooks?: string;
  targetContacts?: string;
  targetSegments?: string;
}

/** The spec's rules (§5) with its texts; `create` requires the four fields. */
export function validateInput(input: CampaignInput, create: boolean): CleanInput {
  const out: CleanInput = {};
  const required = (key: 'name' | 'subject' | 'fromName' | 'fromEmail', label: string, max: number) => {
    const v = input[key];
    if (v === undefined) {
      if (create) throw badRequest(`${label} is required`);
      return;
    }
    const s = v.trim();
    if (!s) throw badRequest(`${label} is required`);
    if (s.length > max) throw badRequest(`${label} must be at most ${max} characters`);
    out[key] = s;
  };
  required('name', 'Name', CAMPAIGN_LIMITS.name);
  required('subject', 'Subject', CAMPAIGN_LIMITS.subject);
  required('fromName', 'From name', CAMPAIGN_LIMITS.fromName);
  required('fromEmail', 'From email', CAMPAIGN_LIMITS.fromEmail);
  if (out.fromEmail !== undefined) {
    const email = normalizeEmail(out.fromEmail);
    if (!email || /[\s<>(),;:"\\[\]]/.test(email))
      throw badRequest('Please enter a valid from email address');
    out.fromEmail = email;
  }
  if (/[\r\n]/.test(out.subject ?? '') || /[\r\n]/.test(out.fromName ?? ''))
    throw badRequest('Subject and from name must be on one line');
  // Saved as it will be sent: through the e-mail allowlist (the answer shows what was kept).
  if (input.htmlContent !== undefined)
    out.htmlContent = input.htmlContent.trim() ? sanitizeEmailHtml(input.htmlContent) : input.htmlContent;
  if (input.textContent !== undefined) out.textContent = input.textContent?.trim() ? input.textContent : null;
  if (input.scheduledAt !== undefined)
    out.scheduledAt = input.scheduledAt === null ? null : new Date(input.scheduledAt);
  if (input.targetAddressBooks !== undefined)
    out.targetAddressBooks = JSON.stringify(parseIdList(input.targetAddressBooks, 'targetAddressBooks'));
  if (input.targetContacts !== undefined)
    out.targetContacts = JSON.stringify(parseIdList(input.targetContacts, 'targetContacts'));
  if (input.targetSegments !== undefined)
    out.targetSegments = JSON.stringify([...new Set(input.targetSegments)]);
  return out;
}
