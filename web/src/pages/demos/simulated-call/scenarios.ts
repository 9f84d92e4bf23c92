import type { Speaker } from '@parley/contracts';

/**
 * The built-in call scenarios of the simulated call demo (spec §3 "Call scenario"): six
 * industries, nine steps each. Pure data (no React), so the browser tests can read the
 * scripts they expect to hear.
 */

export const EMOTIONS = [
  'professional',
  'friendly',
  'neutral',
  'excited',
  'concerned',
  'interested',
  'relieved',
] as const;
export type Emotion = (typeof EMOTIONS)[number];

export type ScenarioIcon = 'stethoscope' | 'utensils' | 'home' | 'landmark' | 'scale' | 'car';

export interface CallStep {
  id: number;
  speaker: Speaker;
  text: string;
  /** Seconds the line takes to say; a muted or text-only call advances on it. */
  duration: number;
  emotion: Emotion;
}

export interface CallScenario {
  id: string;
  title: string;
  description: string;
  industry: string;
  icon: ScenarioIcon;
  /** The situation the call starts from. */
  scenario: string;
  callSteps: CallStep[];
}

/** Seconds to say a line at an unhurried phone pace (150 words a minute), at least 2. */
const secondsToSay = (text: string) => Math.max(2, Math.ceil(text.split(/\s+/).length / 2.5));

type Line = [speaker: Speaker, emotion: Emotion, text: string];
const steps = (lines: Line[]): CallStep[] =>
  lines.map(([speaker, emotion, text], i) => ({
    id: i + 1,
    speaker,
    text,
    duration: secondsToSay(text),
    emotion,
  }));

export const CALL_SCENARIOS: CallScenario[] = [
  {
    id: 'medical-scheduling',
    title: 'Patient Appointment Scheduling',
    description: 'A virtual receptionist books a follow-up visit, confirms insurance and sends a reminder.',
    industry: 'Healthcare',
    icon: 'stethoscope',
    scenario: 'A returning patient calls Lakeside Family Medicine to book a follow-up about knee pain.',
    callSteps: steps([
      [
        'ai',
        'professional',
        "Good morning, Lakeside Family Medicine, this is Ava, the practice's virtual assistant. How can I help you today?",
      ],
      ['customer', 'neutral', 'Hi, I need to book a follow-up with Doctor Patel about my knee.'],
      [
        'ai',
        'friendly',
        'Of course. Can I have your full name and date of birth so I can pull up your record?',
      ],
      ['customer', 'neutral', "Sure, it's Daniel Brooks, March fourteenth, nineteen eighty-two."],
      [
        'ai',
        'professional',
        'Thank you, Daniel, I found you. Doctor Patel has openings this Thursday at 9:40 AM or Friday at 2:15 PM. Which works better?',
      ],
      ['customer', 'interested', 'Thursday morning is perfect.'],
      [
        'ai',
        'professional',
        "You're booked for Thursday at 9:40 AM with Doctor Patel. Is your insurance still the Blue Cross PPO plan?",
      ],
      ['customer', 'relieved', 'Yes, same plan. Thanks, that was easy.'],
      [
        'ai',
        'friendly',
        "Wonderful. You'll get a text confirmation shortly and a reminder the day before. Please arrive ten minutes early. Take care, Daniel!",
      ],
    ]),
  },
  {
    id: 'restaurant-reservation',
    title: 'Dinner Reservation',
    description:
      'An AI host takes a party booking, seats it on the patio and notes an allergy and a birthday.',
    industry: 'Hospitality',
    icon: 'utensils',
    scenario: 'A guest calls Bella Vista Trattoria to reserve a table for Saturday night.',
    callSteps: steps([
      [
        'ai',
        'friendly',
        'Good evening, thank you for calling Bella Vista Trattoria. Would you like to make a reservation?',
      ],
      ['customer', 'friendly', 'Yes, please. A table for four this Saturday, around seven.'],
      [
        'ai',
        'professional',
        'Let me check. Seven is fully booked, but I have six forty-five or seven thirty. Would either work?',
      ],
      ['customer', 'neutral', 'Seven thirty works. Could we sit on the patio?'],
      [
        'ai',
        'friendly',
        "Absolutely, I've requested a patio table. May I have a name and a mobile number for the booking?",
      ],
      ['customer', 'neutral', "It's Sarah Kim, six one seven, five five five, zero one nine eight."],
      ['ai', 'interested', 'Thank you, Sarah. Are there any allergies, or is it a special occasion?'],
      ['customer', 'excited', "It's my husband's birthday, and one of us is allergic to shellfish."],
      [
        'ai',
        'excited',
        "Noted on both, and the chef will send out a birthday dessert. You're confirmed for four on Saturday at seven thirty. See you then!",
      ],
    ]),
  },
  {
    id: 'real-estate-inquiry',
    title: 'Property Inquiry and Showing',
    description: 'An AI agent answers a listing question, qualifies the buyer and books a showing.',
    industry: 'Real Estate',
    icon: 'home',
    scenario: 'A buyer calls Harbor Realty about a three-bedroom listing on Maple Street seen online.',
    callSteps: steps([
      [
        'ai',
        'professional',
        'Thanks for calling Harbor Realty, this is Ava. Are you calling about one of our listings?',
      ],
      ['customer', 'interested', 'Yes, the three-bedroom on Maple Street. Is it still available?'],
      [
        'ai',
        'friendly',
        "It is. It's listed at four hundred eighty-nine thousand, with a renovated kitchen and a fenced backyard. Are you working with an agent yet?",
      ],
      ['customer', 'neutral', "Not yet. We're pre-approved up to five hundred thousand."],
      [
        'ai',
        'interested',
        "That's a great position to be in. When are you hoping to move, and how many bedrooms do you need?",
      ],
      ['customer', 'neutral', 'Within three months, and three bedrooms is exactly right.'],
      [
        'ai',
        'professional',
        'Jessica Lane, the listing agent, can show it tomorrow at 5:30 PM or Saturday at 11 AM. Which suits you?',
      ],
      ['customer', 'excited', 'Saturday at eleven, please.'],
      [
        'ai',
        'friendly',
        "Done. Jessica will meet you at the house on Saturday at 11 AM, and I'm texting you the address and disclosure packet now. Enjoy the showing!",
      ],
    ]),
  },
  {
    id: 'debt-collection',
    title: 'Payment Arrangement',
    description: 'A respectful, compliant reminder call that ends in an affordable payment plan.',
    industry: 'Financial Services',
    icon: 'landmark',
    scenario: 'Summit Credit Services follows up with a customer about a past-due balance.',
    callSteps: steps([
      [
        'ai',
        'professional',
        'Hello, this is Ava from Summit Credit Services. Am I speaking with Michael Torres?',
      ],
      ['customer', 'neutral', 'Yes, this is Michael.'],
      [
        'ai',
        'professional',
        "Thank you. This is an attempt to collect a debt, and any information obtained will be used for that purpose. I'm calling about a past-due balance of eight hundred forty dollars.",
      ],
      ['customer', 'concerned', "I know. I lost some hours at work and I can't pay it all at once."],
      [
        'ai',
        'friendly',
        'I understand, and thank you for telling me. We can set up a plan that fits your budget. Would three payments of two hundred eighty dollars work?',
      ],
      ['customer', 'concerned', "That's still a bit much. Could I make smaller payments?"],
      [
        'ai',
        'professional',
        'Yes. I can offer six monthly payments of one hundred forty dollars, starting on the fifteenth, with no added fees.',
      ],
      ['customer', 'relieved', "That I can manage. Let's do that."],
      [
        'ai',
        'friendly',
        "Great, your plan is set. You'll receive a written confirmation by email today. Thank you for working with us, Michael.",
      ],
    ]),
  },
  {
    id: 'bail-bonds',
    title: 'Bail Bond Assistance',
    description: 'A calm, clear first call for a family member who needs to post bail at night.',
    industry: 'Legal Services',
    icon: 'scale',
    scenario: 'A caller phones Liberty Bail Bonds late at night after her brother is arrested.',
    callSteps: steps([
      [
        'ai',
        'professional',
        "Liberty Bail Bonds, we're available twenty-four hours a day. This is Ava. How can I help you tonight?",
      ],
      ['customer', 'concerned', "My brother was arrested a few hours ago, and I don't know what to do."],
      [
        'ai',
        'friendly',
        "I'm sorry you're going through this. We'll take it one step at a time. Do you know where he's being held?",
      ],
      ['customer', 'concerned', 'The county jail downtown. They said his bail is ten thousand dollars.'],
      [
        'ai',
        'professional',
        'Thank you. The premium is ten percent, so one thousand dollars, and we offer payment plans. May I have his full name and date of birth?',
      ],
      ['customer', 'neutral', 'Marcus Reed, June second, nineteen ninety-five.'],
      [
        'ai',
        'professional',
        'I have it. An agent can meet you at the jail in about forty-five minutes with the paperwork. Please bring a photo ID.',
      ],
      ['customer', 'relieved', "Thank you, that's a huge relief."],
      [
        'ai',
        'friendly',
        "You're welcome. I'm texting you the agent's name and number now. Release usually takes two to six hours after the bond is posted.",
      ],
    ]),
  },
  {
    id: 'automotive-service',
    title: 'Service Appointment',
    description: 'An AI service advisor books a diagnostic, flags an open recall and reserves a loaner.',
    industry: 'Automotive',
    icon: 'car',
    scenario: 'A driver calls Riverside Auto Care after a warning light comes on.',
    callSteps: steps([
      [
        'ai',
        'friendly',
        'Thanks for calling Riverside Auto Care. This is Ava, your service assistant. What can we help with today?',
      ],
      ['customer', 'concerned', "My check engine light came on this morning. It's a 2019 Honda Accord."],
      [
        'ai',
        'professional',
        'Thanks. Is the light steady or flashing, and have you noticed any change in how the car drives?',
      ],
      ['customer', 'neutral', "It's steady, and the car seems to drive normally."],
      [
        'ai',
        'professional',
        "A steady light usually isn't an emergency, but we should scan it soon. I can book a diagnostic tomorrow at 8 AM or 1 PM.",
      ],
      ['customer', 'interested', 'Eight works. How long will it take?'],
      [
        'ai',
        'professional',
        "About an hour. There's also an open recall on your model, so we'll check that at no charge. Would you like a loaner car?",
      ],
      ['customer', 'excited', 'Yes, a loaner would be great.'],
      [
        'ai',
        'friendly',
        "You're all set for tomorrow at 8 AM with a loaner reserved. We'll text you when your car is ready. Drive safely!",
      ],
    ]),
  },
];

/** Total length of a scenario: the sum of its step durations in seconds (spec §9). */
export const scenarioSeconds = (s: CallScenario) => s.callSteps.reduce((sum, step) => sum + step.duration, 0);

export const findScenario = (id: string) => CALL_SCENARIOS.find((s) => s.id === id);
