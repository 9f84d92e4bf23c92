/**
 * What the local writer knows of the fields it writes for: the industries a topic can name
 * (with the audience, callers, tasks, rules and measure each brings), the general case when it
 * names none, and the themes a post is tagged with.
 */

export interface Industry {
  name: string;
  tag: string;
  /** Words that name the industry; the one with most distinct hits wins, ties by order. */
  keywords: RegExp;
  /** Who the post is for, when the topic names no audience itself ("for law firms"). */
  audience: string;
  /** Where the work happens, after "In": "In healthcare", "In most small businesses". */
  field: string;
  /** Who to ask about the phones. */
  manager: string;
  callers: string;
  tasks: string[];
  rules: string;
  metric: string;
}

const INDUSTRIES: Industry[] = [
  {
    name: 'healthcare',
    tag: 'Healthcare',
    keywords:
      /\b(health|healthcare|clinics?|patients?|medical|dental|dentists?|doctors?|physicians?|nurses?|hospitals?|pharmacy|pharmacies|therapy|therapists?|hipaa)\b/gi,
    audience: 'healthcare teams',
    field: 'healthcare',
    manager: 'practice manager',
    callers: 'patients',
    tasks: [
      'booking and moving appointments',
      'answering questions about opening hours and insurance',
      'sending reminders that cut no-shows',
      'routing urgent symptoms to a nurse line',
    ],
    rules:
      'patient privacy rules such as HIPAA, which limit what may be said on a call and how recordings are stored',
    metric: 'no-show rate',
  },
  {
    name: 'real estate',
    tag: 'Real Estate',
    keywords:
      /\b(real estate|realtors?|realty|property|properties|listings?|brokers?|brokerages?|rentals?|tenants?|landlords?|home buyers?|showings?)\b/gi,
    audience: 'real estate teams',
    field: 'real estate',
    manager: 'brokerage manager',
    callers: 'buyers, sellers and tenants',
    tasks: [
      'qualifying buyers before an agent calls back',
      'scheduling showings',
      'answering questions about a listing at any hour',
      'logging maintenance requests from tenants',
    ],
    rules: 'fair-housing rules, which require every caller to get the same answers',
    metric: 'showings booked per lead',
  },
  {
    name: 'legal',
    tag: 'Legal',
    keywords:
      /\b(law|legal|lawyers?|attorneys?|paralegals?|intake|litigation|counsel|personal injury|court)\b/gi,
    audience: 'law firms',
    field: 'legal practice',
    manager: 'law firm manager',
    callers: 'prospective and current clients',
    tasks: [
      'running first-call intake',
      'checking which practice area a matter belongs to',
      'booking consultations',
      'taking messages for attorneys in court',
    ],
    rules:
      'confidentiality and conflict-check duties, which decide what an agent may collect before a lawyer reviews the matter',
    metric: 'consultations booked from new enquiries',
  },
  {
    name: 'financial services',
    tag: 'Finance',
    keywords:
      /\b(finance|financial|banks?|banking|insurance|insurers?|loans?|lenders?|mortgages?|accounting|accountants?|wealth|advisors?|credit|claims?|policyholders?|tax)\b/gi,
    audience: 'financial services teams',
    field: 'financial services',
    manager: 'branch manager',
    callers: 'customers and applicants',
    tasks: [
      'answering account and policy questions',
      'collecting application details',
      'booking meetings with advisors',
      'explaining claim steps',
    ],
    rules:
      'identity verification and record-keeping requirements, which shape how a caller is authenticated and what gets logged',
    metric: 'first-call resolution',
  },
  {
    name: 'hospitality',
    tag: 'Hospitality',
    keywords:
      /\b(hotels?|restaurants?|hospitality|reservations?|booking desk|guests?|travel|resorts?|catering|venues?|dinner)\b/gi,
    audience: 'hospitality teams',
    field: 'hospitality',
    manager: 'front-of-house manager',
    callers: 'guests',
    tasks: [
      'taking and changing reservations',
      'answering questions about menus, rooms and amenities',
      'handling calls in the guest’s language',
      'upselling upgrades and special requests',
    ],
    rules: 'payment-card rules, which keep card numbers out of transcripts',
    metric: 'reservations captured during peak hours',
  },
];

export const GENERAL: Industry = {
  name: 'small business',
  tag: 'Small Business',
  keywords: /$^/g,
  audience: 'small businesses',
  field: 'most small businesses',
  manager: 'small business owner',
  callers: 'customers',
  tasks: [
    'answering common questions',
    'booking appointments',
    'qualifying new leads',
    'taking detailed messages',
  ],
  rules: 'consumer-protection and call-recording consent rules',
  metric: 'calls answered on the first ring',
};

/** Industry named by the topic: the one with most distinct keyword hits, ties by order. */
export function industryOf(topic: string): Industry {
  let best = GENERAL;
  let score = 0;
  for (const industry of INDUSTRIES) {
    const hits = new Set([...topic.matchAll(industry.keywords)].map((m) => m[0].toLowerCase())).size;
    if (hits > score) {
      best = industry;
      score = hits;
    }
  }
  return best;
}

/**
 * Tags an editor would file the post under: the topic's themes from a fixed vocabulary,
 * never a stray word of the topic (such as 'Cut').
 */
const THEMES: Array<[RegExp, string]> = [
  [/\b(appointments?|bookings?|schedul\w*|calendars?|showings?)\b/i, 'Appointment Scheduling'],
  [/\b(after[- ]hours|24\/7|overnight|nights?|weekends?|holidays?)\b/i, 'After-Hours Coverage'],
  [/\b(miss(?:ed|es)? calls?|voicemail|hold times?|wait times?|call volume|busy lines?)\b/i, 'Missed Calls'],
  [/\b(leads?|qualif\w*|sales|prospects?|conversions?)\b/i, 'Lead Qualification'],
  [/\b(intake|screening|triage)\b/i, 'Client Intake'],
  [/\b(costs?|sav(?:e|es|ing|ings)|roi|budgets?|spend\w*|cheaper|margins?)\b/i, 'Cost Savings'],
  [/\b(customer (?:service|experience|support)|support|satisfaction)\b/i, 'Customer Experience'],
  [/\b(complian\w*|hipaa|gdpr|privacy|consent|regulat\w*)\b/i, 'Compliance'],
  [/\b(no[- ]shows?|reminders?|follow[- ]ups?)\b/i, 'Reminders'],
  [/\b(receptionists?|front desk|answering services?)\b/i, 'Virtual Receptionist'],
  [/\b(staff\w*|burnout|hiring|workloads?)\b/i, 'Staffing'],
  [/\b(multilingual|languages?|spanish|bilingual)\b/i, 'Multilingual Support'],
  [/\b(crm|integrat\w*|api)\b/i, 'Integrations'],
];

export const themes = (topic: string): string[] =>
  THEMES.filter(([re]) => re.test(topic)).map(([, tag]) => tag);
