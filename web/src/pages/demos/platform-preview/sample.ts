/** Sample content of the read-only platform preview (spec §2 "Platform preview"). */

export const AGENT = {
  name: 'Ava — Front Desk Assistant',
  business: 'Harborview Family Dental',
  greeting:
    'Thanks for calling Harborview Family Dental, this is Ava. I can book, move or cancel an appointment, or answer questions about our services. How can I help you today?',
};

export const VOICE_MODELS = [
  'Rachel — warm, professional (female)',
  'Josh — calm, reassuring (male)',
  'Bella — bright, friendly (female)',
];

export const LANGUAGES = ['English (US)', 'English (UK)', 'Spanish (US)', 'French (Canada)'];

export const RESPONSE_SPEEDS = [
  { id: 'fast', label: 'Fast', description: 'Replies in under half a second; best for simple questions.' },
  {
    id: 'balanced',
    label: 'Balanced',
    description: 'Natural conversational pauses; recommended for most businesses.',
  },
  {
    id: 'thoughtful',
    label: 'Thoughtful',
    description: 'Takes a moment longer to look things up for complex requests.',
  },
] as const;
export const SELECTED_SPEED = 'balanced';

export const DOCUMENTS = [
  { name: 'Services and price list.pdf', detail: '14 pages · updated 3 days ago' },
  { name: 'Insurance plans we accept.docx', detail: '2 pages · updated last week' },
  { name: 'Office hours and locations', detail: 'Web page · synced daily' },
  { name: 'New patient FAQ', detail: '26 questions · updated yesterday' },
];

export const SAMPLE_ANSWERS = [
  {
    question: 'Do you take Delta Dental?',
    answer: 'Yes, we are in network with Delta Dental PPO and Premier plans.',
  },
  {
    question: 'Are you open on Saturdays?',
    answer: 'Our Harbor Street office is open Saturdays from 8 AM to 1 PM.',
  },
];

export const FLOW_STEPS = [
  {
    title: 'Greet and understand the request',
    description:
      'Answers within one ring, introduces the practice and works out whether the caller wants to book, reschedule or ask a question.',
  },
  {
    title: 'Collect the details',
    description:
      'Asks for the patient name, date of birth and reason for the visit, confirms insurance and checks the calendar for open times.',
  },
  {
    title: 'Book and confirm',
    description:
      'Books the chosen slot, reads the details back, sends a text confirmation and hands over to a person when the caller asks.',
  },
];

export const GUARDRAILS = [
  { label: 'Hand over to staff whenever a caller asks for a person', on: true },
  { label: 'Read every booking back to the caller before confirming', on: true },
  { label: 'Never give medical advice; offer a call-back from a clinician', on: true },
  { label: 'Record calls for quality review', on: false },
];

export const ACTIONS = [
  {
    name: 'Book appointment',
    description: 'Creates the visit in the practice calendar with the reason and insurance.',
    trigger: 'When the caller picks a time',
  },
  {
    name: 'Transfer to front desk',
    description: 'Warm-transfers the call with a short summary for the receptionist.',
    trigger: 'When the caller asks for a person or an emergency is mentioned',
  },
  {
    name: 'Send SMS confirmation',
    description: 'Texts the date, time, address and a link to reschedule.',
    trigger: 'After every booking',
  },
  {
    name: 'Update patient record',
    description: 'Saves new contact details and call notes to the practice CRM.',
    trigger: 'At the end of every call',
  },
];

export type CallOutcome = 'Completed' | 'Transferred' | 'No Answer';

export const CALLS: {
  caller: string;
  number: string;
  summary: string;
  duration: string;
  when: string;
  outcome: CallOutcome;
}[] = [
  {
    caller: 'Maria Gonzalez',
    number: '(617) •••-0142',
    summary: 'Booked a cleaning for Tuesday 10:30 AM; SMS confirmation sent.',
    duration: '2:41',
    when: 'Today, 9:12 AM',
    outcome: 'Completed',
  },
  {
    caller: 'James Whitfield',
    number: '(857) •••-7730',
    summary: 'Reported a cracked tooth and pain; transferred to the front desk.',
    duration: '1:18',
    when: 'Today, 8:47 AM',
    outcome: 'Transferred',
  },
  {
    caller: 'Outbound reminder',
    number: '(781) •••-5519',
    summary: 'Appointment reminder; no answer, voicemail left and a text sent.',
    duration: '0:32',
    when: 'Yesterday, 4:05 PM',
    outcome: 'No Answer',
  },
];
