import {
  BedDouble,
  BookOpen,
  BriefcaseBusiness,
  CalendarClock,
  Car,
  FileText,
  Gavel,
  HeartPulse,
  House,
  Landmark,
  type LucideIcon,
  PackageCheck,
  Scale,
  Target,
} from 'lucide-react';

/**
 * The thirteen use-case cards of /use-cases (spec §2 "Use Cases page", §3 "Use-case card").
 * Pure data for the page chunk; the scripted conversations live in scenarios.ts, which is
 * loaded with the demo dialog only. Result claims are typical outcomes, not guarantees, and
 * the page says so next to them.
 */

/**
 * The scripted conversations: one per card (the spec's original had 13 cards and 12
 * scenarios, so Legal Intake had no 'Check It'; it has one here, see
 * docs/adr/0038-public-site-content-where-the-spec-is-silent.md).
 */
export const SCENARIO_IDS = [
  'hotel-guest-services',
  'appointment-scheduling',
  'lead-qualification',
  'ecommerce-orders',
  'patient-triage',
  'education-support',
  'automotive-service',
  'real-estate',
  'financial-services',
  'court-reporting',
  'debt-collection',
  'bail-bonds',
  'legal-intake',
] as const;
export type ScenarioId = (typeof SCENARIO_IDS)[number];

export interface ResultClaim {
  /** The headline figure, e.g. '60%'. */
  value: string;
  /** What the figure measures. */
  label: string;
}

export interface UseCase {
  id: string;
  title: string;
  description: string;
  industry: string;
  icon: LucideIcon;
  benefits: readonly [string, string, string, string];
  metrics: { efficiency: ResultClaim; satisfaction: ResultClaim; cost: ResultClaim };
  /** The scripted conversation 'Check It' plays; a card without one shows no 'Check It'. */
  demoScenario?: ScenarioId;
}

export const USE_CASES: readonly UseCase[] = [
  {
    id: 'hotel-guest-services',
    title: 'Hotel Guest Services',
    industry: 'Hospitality',
    icon: BedDouble,
    description:
      'A 24/7 concierge on every room phone and your main line: late checkouts, housekeeping requests, restaurant tables and local tips, in the guest’s own language.',
    benefits: [
      'Answers every guest call at once, day and night',
      'Routes housekeeping and maintenance requests straight to the right team',
      'Books spa, restaurant and late-checkout upgrades that add revenue',
      'Speaks with international guests in 50+ languages',
    ],
    metrics: {
      efficiency: { value: '60%', label: 'of routine guest requests handled without front-desk staff' },
      satisfaction: { value: '4.7/5', label: 'average guest rating for phone service' },
      cost: { value: '35%', label: 'lower guest-services staffing cost per occupied room' },
    },
    demoScenario: 'hotel-guest-services',
  },
  {
    id: 'appointment-scheduling',
    title: 'Appointment Scheduling',
    industry: 'Dental & Wellness',
    icon: CalendarClock,
    description:
      'Books, moves and confirms appointments straight into your practice calendar, checks insurance details and fills cancellations from the waitlist.',
    benefits: [
      'Books into your live calendar with no double bookings',
      'Sends text confirmations and reminders automatically',
      'Fills last-minute cancellations from the waitlist',
      'Takes bookings after hours and on weekends',
    ],
    metrics: {
      efficiency: { value: '3×', label: 'more bookings handled per front-desk hour' },
      satisfaction: { value: '92%', label: 'of callers book on their first call' },
      cost: { value: '40%', label: 'fewer no-shows with automatic reminders' },
    },
    demoScenario: 'appointment-scheduling',
  },
  {
    id: 'lead-qualification',
    title: 'Lead Qualification',
    industry: 'B2B Sales',
    icon: Target,
    description:
      'Calls back inbound leads within a minute, asks your qualification questions, scores the fit and books qualified buyers onto your sales team’s calendars.',
    benefits: [
      'Speed-to-lead in under 60 seconds, around the clock',
      'Asks budget, authority, need and timeline questions consistently',
      'Writes scored notes and call summaries into your CRM',
      'Books meetings for qualified buyers directly with reps',
    ],
    metrics: {
      efficiency: { value: '5×', label: 'faster response to new inbound leads' },
      satisfaction: { value: '35%', label: 'more qualified meetings booked per month' },
      cost: { value: '50%', label: 'lower cost per qualified lead' },
    },
    demoScenario: 'lead-qualification',
  },
  {
    id: 'ecommerce-orders',
    title: 'E-commerce Order Management',
    industry: 'E-commerce & Retail',
    icon: PackageCheck,
    description:
      'Tracks orders, changes delivery addresses, starts returns and exchanges and answers product questions, connected to your store and shipping carriers.',
    benefits: [
      'Real-time order and shipment status from your store platform',
      'Starts returns and exchanges and emails the prepaid label',
      'Handles seasonal peaks without hiring temporary agents',
      'Hands complex cases to a human with the full context',
    ],
    metrics: {
      efficiency: { value: '70%', label: 'of “where is my order” calls resolved automatically' },
      satisfaction: { value: '4.6/5', label: 'average post-call customer rating' },
      cost: { value: '45%', label: 'lower cost per support contact' },
    },
    demoScenario: 'ecommerce-orders',
  },
  {
    id: 'patient-triage',
    title: 'Patient Triage',
    industry: 'Healthcare',
    icon: HeartPulse,
    description:
      'Follows your clinical protocols to ask about symptoms, spots urgent cases for immediate transfer to a nurse and books the right visit type for everyone else.',
    benefits: [
      'Protocol-based symptom questions approved by your clinicians',
      'Transfers red-flag symptoms to a nurse or 911 guidance at once',
      'Books the right visit type and provider for each patient',
      'HIPAA-ready handling of patient information',
    ],
    metrics: {
      efficiency: { value: '50%', label: 'less nurse time spent on routine triage calls' },
      satisfaction: { value: '94%', label: 'of patients rate the call as helpful' },
      cost: { value: '30%', label: 'lower call-centre cost per patient contact' },
    },
    demoScenario: 'patient-triage',
  },
  {
    id: 'education-support',
    title: 'Education Support',
    industry: 'Education',
    icon: BookOpen,
    description:
      'Answers admissions, enrolment, financial-aid and campus questions for students and parents, and books advising appointments during the busiest weeks of term.',
    benefits: [
      'Handles enrolment-season call spikes without hold queues',
      'Answers deadline, fee and financial-aid questions from your catalogue',
      'Books advising and campus-tour appointments',
      'Supports students and parents in their preferred language',
    ],
    metrics: {
      efficiency: { value: '65%', label: 'of student enquiries answered without staff' },
      satisfaction: { value: '90%', label: 'of callers get an answer on the first call' },
      cost: { value: '40%', label: 'lower cost per enquiry at peak enrolment' },
    },
    demoScenario: 'education-support',
  },
  {
    id: 'automotive-service',
    title: 'Automotive Service',
    industry: 'Automotive',
    icon: Car,
    description:
      'Books service and repair appointments, gives status updates on vehicles in the shop, arranges loaner cars and answers recall questions for your dealership or garage.',
    benefits: [
      'Books into your service-lane schedule and bay capacity',
      'Gives repair status updates without pulling technicians away',
      'Arranges loaner cars and shuttle pick-ups',
      'Offers due maintenance and recall work on every call',
    ],
    metrics: {
      efficiency: { value: '80%', label: 'of service-booking calls answered on the first ring' },
      satisfaction: { value: '4.8/5', label: 'average customer rating for the booking call' },
      cost: { value: '25%', label: 'more service revenue from recovered missed calls' },
    },
    demoScenario: 'automotive-service',
  },
  {
    id: 'real-estate',
    title: 'Real Estate',
    industry: 'Real Estate',
    icon: House,
    description:
      'Answers listing questions from every sign call and portal enquiry, qualifies buyers and renters and books showings straight into your agents’ calendars.',
    benefits: [
      'Answers listing details, price and availability instantly',
      'Qualifies buyers on budget, financing and timeline',
      'Books showings around each agent’s calendar',
      'Captures every after-hours lead with a full summary',
    ],
    metrics: {
      efficiency: { value: '2×', label: 'more showings booked per agent each week' },
      satisfaction: { value: '100%', label: 'of enquiry calls answered, including after hours' },
      cost: { value: '30%', label: 'lower cost per qualified lead' },
    },
    demoScenario: 'real-estate',
  },
  {
    id: 'financial-services',
    title: 'Financial Services',
    industry: 'Banking & Finance',
    icon: Landmark,
    description:
      'Verifies callers securely, then handles balance questions, card freezes and replacements and appointment bookings with advisers, with full audit trails.',
    benefits: [
      'Multi-factor caller verification before any account detail',
      'Freezes lost cards and orders replacements in seconds',
      'Books meetings with advisers and loan officers',
      'Complete recordings and transcripts for compliance review',
    ],
    metrics: {
      efficiency: { value: '55%', label: 'of routine account calls resolved without an agent' },
      satisfaction: { value: '4.6/5', label: 'average member satisfaction score' },
      cost: { value: '40%', label: 'lower contact-centre cost per call' },
    },
    demoScenario: 'financial-services',
  },
  {
    id: 'court-reporting',
    title: 'Court Reporting',
    industry: 'Legal Services',
    icon: FileText,
    description:
      'Schedules court reporters, videographers and interpreters for depositions and hearings, and answers transcript-order and turnaround questions for law firms.',
    benefits: [
      'Books reporters, videographers and interpreters in one call',
      'Captures case caption, location and remote-access details accurately',
      'Quotes standard and expedited transcript turnaround',
      'Sends written confirmations to every party',
    ],
    metrics: {
      efficiency: { value: '75%', label: 'less staff time spent on scheduling calls' },
      satisfaction: { value: '96%', label: 'of bookings confirmed without a follow-up call' },
      cost: { value: '35%', label: 'lower scheduling cost per job' },
    },
    demoScenario: 'court-reporting',
  },
  {
    id: 'debt-collection',
    title: 'Debt Collection',
    industry: 'Collections',
    icon: Scale,
    description:
      'Respectful, compliant payment conversations: verifies identity, gives the required disclosures and sets up payment plans customers can actually keep.',
    benefits: [
      'Required disclosures and identity checks on every call',
      'Offers payment plans within the rules you set',
      'Calm, consistent tone that de-escalates difficult calls',
      'Full recordings and transcripts for compliance audits',
    ],
    metrics: {
      efficiency: { value: '3×', label: 'more accounts reached per collector' },
      satisfaction: { value: '25%', label: 'more promises to pay kept' },
      cost: { value: '50%', label: 'lower cost to collect per account' },
    },
    demoScenario: 'debt-collection',
  },
  {
    id: 'bail-bonds',
    title: 'Bail Bonds',
    industry: 'Bail Bonds',
    icon: Gavel,
    description:
      'Answers urgent calls from families at any hour, explains the bail process and fees calmly, collects defendant details and connects the caller to a licensed agent.',
    benefits: [
      'Picks up every urgent call, 24/7, with no voicemail',
      'Explains premiums, collateral and the release process clearly',
      'Collects defendant, booking and jail details before the hand-off',
      'Connects callers to the on-call licensed agent immediately',
    ],
    metrics: {
      efficiency: { value: '90%', label: 'of the intake done before an agent joins the call' },
      satisfaction: { value: '4.8/5', label: 'average caller rating for clarity and calm' },
      cost: { value: '40%', label: 'lower after-hours answering cost' },
    },
    demoScenario: 'bail-bonds',
  },
  {
    id: 'legal-intake',
    title: 'Legal Intake',
    industry: 'Law Firms',
    icon: BriefcaseBusiness,
    description:
      'Screens new-client enquiries for your practice areas, runs conflict-check questions and books consultations with the right attorney, so no case goes to voicemail.',
    benefits: [
      'Screens enquiries against your practice areas and criteria',
      'Collects conflict-check details before any consultation',
      'Books consultations with the right attorney',
      'Answers after hours, when most new clients call',
    ],
    metrics: {
      efficiency: { value: '60%', label: 'less paralegal time spent on intake calls' },
      satisfaction: { value: '30%', label: 'more enquiries converted to consultations' },
      cost: { value: '45%', label: 'lower cost per signed client' },
    },
    demoScenario: 'legal-intake',
  },
];
