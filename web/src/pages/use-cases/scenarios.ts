import type { Speaker } from '@parley/contracts';
import type { ScenarioId } from './use-cases.ts';

/**
 * The scripted conversations the Use Cases page's 'Check It' dialog plays (spec §3 "Demo
 * script step", §9): thirteen scenarios of nine steps each (the spec's original had twelve
 * and left Legal Intake without one), alternating between the AI agent
 * and a customer. Pure data, loaded with the dialog only (never in the page's own chunk), and
 * read by the browser tests to know what they should hear.
 */

export interface DemoStep {
  id: number;
  speaker: Speaker;
  /** What is said; at most TTS_MAX_CHARS (600) characters, the voice service's limit. */
  text: string;
  /** Seconds the line takes to say: the highlighting's clock, and the step's length when muted. */
  duration: number;
}

export interface DemoScenario {
  id: ScenarioId;
  /** The situation the call starts from, shown above the conversation. */
  setting: string;
  steps: DemoStep[];
}

/** Pause between one step's end and the next step's start (spec §4, §9). */
export const STEP_GAP_MS = 600;

/** Seconds to say a line at an unhurried phone pace (150 words a minute), at least 2. */
const secondsToSay = (text: string) => Math.max(2, Math.ceil(text.split(/\s+/).length / 2.5));

type Line = [speaker: Speaker, text: string];
const steps = (lines: Line[]): DemoStep[] =>
  lines.map(([speaker, text], i) => ({ id: i + 1, speaker, text, duration: secondsToSay(text) }));

const SCENARIO_LIST: DemoScenario[] = [
  {
    id: 'hotel-guest-services',
    setting: 'A guest at the Harborview Hotel calls the front desk from room 412.',
    steps: steps([
      ['ai', 'Good evening, Harborview Hotel guest services, this is Ava. How can I help you tonight?'],
      [
        'customer',
        "Hi, I'm in room 412. Could I get two extra towels, and is a late checkout possible tomorrow?",
      ],
      [
        'ai',
        'Of course. Housekeeping will bring two towels within fifteen minutes. For tomorrow, I can offer checkout at 1 PM at no charge, or 3 PM for thirty dollars. Which would you prefer?',
      ],
      ['customer', "One o'clock is perfect. Also, is the rooftop restaurant open for dinner?"],
      [
        'ai',
        'It is, until ten thirty. I have a table for two at eight fifteen, or a window table at eight forty-five. Shall I reserve one?',
      ],
      ['customer', "The window table at eight forty-five, please. It's our anniversary."],
      [
        'ai',
        "Congratulations! Your window table is booked for eight forty-five, and I've let the restaurant know it's your anniversary. It will be charged to room 412.",
      ],
      ['customer', 'Wonderful, thank you so much.'],
      [
        'ai',
        'My pleasure. Towels are on their way, checkout is set for 1 PM, and dinner is at eight forty-five. Enjoy your evening!',
      ],
    ]),
  },
  {
    id: 'appointment-scheduling',
    setting: 'A patient calls Brightside Dental to book a cleaning.',
    steps: steps([
      [
        'ai',
        'Thank you for calling Brightside Dental, this is Mia, the virtual receptionist. How can I help?',
      ],
      ['customer', "Hi, I'd like to book a cleaning. It's been about six months."],
      ['ai', 'Happy to help. Are you an existing patient? If so, may I have your name and date of birth?'],
      ['customer', "Yes, it's Laura Chen, July second, nineteen ninety."],
      [
        'ai',
        'Thanks, Laura, I found your record. Doctor Alvarez has a cleaning slot next Tuesday at 8:30 AM, or Thursday at 4 PM. Which suits you?',
      ],
      ['customer', 'Thursday at four works. Do you still have my Delta Dental insurance on file?'],
      [
        'ai',
        "Yes, Delta Dental PPO is on file, and your cleaning is fully covered. You're booked for Thursday at 4 PM with Doctor Alvarez.",
      ],
      ['customer', 'Great. Can I get a reminder the day before?'],
      [
        'ai',
        "Absolutely. You'll get a text confirmation now and a reminder on Wednesday. Reply C to confirm or R to reschedule. See you Thursday, Laura!",
      ],
    ]),
  },
  {
    id: 'lead-qualification',
    setting: 'A prospect requested pricing on the website a minute ago; the agent calls back.',
    steps: steps([
      [
        'ai',
        'Hi, this is Alex from CloudLedger. You just asked for pricing on our website, so I wanted to follow up right away. Do you have two minutes?',
      ],
      ['customer', 'Sure, that was quick. We are looking at new accounting software.'],
      [
        'ai',
        'Great. To point you to the right plan, roughly how many people would use CloudLedger, and what are you using today?',
      ],
      ['customer', 'About twenty-five people in finance. We are on spreadsheets and an old desktop package.'],
      [
        'ai',
        'Understood. When are you hoping to have a new system in place, and who else is involved in the decision?',
      ],
      [
        'customer',
        'Before our new fiscal year in April. Our CFO makes the final call, and I lead the evaluation.',
      ],
      [
        'ai',
        'That timeline works well. The best next step is a thirty-minute demo with one of our solutions consultants, and your CFO is welcome to join. Would Wednesday at 11 AM or Thursday at 2 PM work?',
      ],
      ['customer', "Thursday at two. I'll invite our CFO."],
      [
        'ai',
        "Done. You're booked with Jordan on Thursday at 2 PM, and I've sent a calendar invite with a short agenda you can forward. Thanks, and talk soon!",
      ],
    ]),
  },
  {
    id: 'ecommerce-orders',
    setting: 'A customer calls Northwind Outfitters about an order that has not arrived.',
    steps: steps([
      [
        'ai',
        'Hi, thanks for calling Northwind Outfitters. I can help with orders, returns and products. What can I do for you?',
      ],
      ['customer', "My order hasn't arrived yet. The number is N W 4 8 2 1 5."],
      [
        'ai',
        "Thanks. I see order N W 48215, a rain jacket and hiking boots. It's with the carrier, out for delivery today, and expected by 7 PM.",
      ],
      ['customer', 'Oh good. But the boots might be too small. Can I exchange them for a size ten?'],
      [
        'ai',
        'Yes. Size ten is in stock. Once the order arrives, I can start the exchange now and email you a prepaid return label. Shall I go ahead?',
      ],
      ['customer', 'Yes, please. Do I have to wait for the return before you send the new pair?'],
      [
        'ai',
        "No. I'll ship the size ten today with free express delivery, so it arrives Thursday. Just send the other pair back within thirty days using the label.",
      ],
      ['customer', "Perfect, that's really convenient."],
      [
        'ai',
        "It's all set. You'll get an email with the exchange confirmation and the return label in a minute. Anything else I can help with today?",
      ],
    ]),
  },
  {
    id: 'patient-triage',
    setting: 'A parent calls Riverside Pediatrics after hours about a feverish child.',
    steps: steps([
      [
        'ai',
        "Riverside Pediatrics after-hours line, this is the clinic's virtual assistant. If this is a life-threatening emergency, please hang up and call 911. How can I help?",
      ],
      ['customer', 'My son is four and has had a fever since this afternoon. It is a hundred and two.'],
      [
        'ai',
        "I'm sorry he isn't feeling well. I'll ask a few questions from our nurses' guidelines. Is he having any trouble breathing, a stiff neck, or a rash that doesn't fade when pressed?",
      ],
      ['customer', "No, none of that. He's tired, but he's drinking water and watching cartoons."],
      [
        'ai',
        'That is reassuring. Has he had any vomiting, fewer wet diapers or trips to the bathroom, or a fever lasting more than three days?',
      ],
      ['customer', 'No vomiting, and he went to the bathroom an hour ago. The fever started today.'],
      [
        'ai',
        'Based on your answers, this can be seen in the office tomorrow. Doctor Nguyen has a sick visit at 8:15 AM. Shall I book it? If anything changes overnight, a nurse is available on this line.',
      ],
      ['customer', 'Yes, please book it. And what can I give him for the fever?'],
      [
        'ai',
        "You're booked at 8:15 tomorrow. I'm texting you the nurses' dosing chart for children's fever medicine by weight. Call back any time if he gets worse.",
      ],
    ]),
  },
  {
    id: 'education-support',
    setting: 'A prospective student calls Lakeshore Community College during enrolment week.',
    steps: steps([
      [
        'ai',
        'Welcome to Lakeshore Community College. I can help with admissions, enrolment and financial aid. What do you need today?',
      ],
      [
        'customer',
        'Hi, I want to start the nursing prerequisites this fall. When is the application deadline?',
      ],
      [
        'ai',
        'For the fall term, applications close on August first, and classes start August twenty-fifth. Have you already submitted an application?',
      ],
      ['customer', 'Not yet. Can I get financial aid as a part-time student?'],
      [
        'ai',
        "Yes. Part-time students taking six credits or more can qualify for federal aid. I'd suggest filing the FAFSA now, using our school code, which I can text you.",
      ],
      ['customer', 'Please do. Could I also talk to someone about which classes to take?'],
      [
        'ai',
        'Of course. An academic adviser for health sciences has openings on Monday at 10 AM or Tuesday at 3 PM, in person or by video. Which would you like?',
      ],
      ['customer', 'Tuesday at three, by video.'],
      [
        'ai',
        "You're booked for Tuesday at 3 PM by video. I'm texting the video link, the FAFSA school code and the application link now. Good luck with nursing!",
      ],
    ]),
  },
  {
    id: 'automotive-service',
    setting: 'A driver calls Metro Motors service department about a warning light.',
    steps: steps([
      ['ai', 'Thanks for calling Metro Motors service. This is the virtual service adviser. How can I help?'],
      ['customer', 'My check engine light came on this morning. The car is a 2021 Camry.'],
      [
        'ai',
        'Thanks. Is the light steady or flashing, and have you noticed any shaking, loss of power or unusual smells?',
      ],
      ['customer', "It's steady, and the car drives normally."],
      [
        'ai',
        'A steady light is usually not an emergency, but it should be checked soon. I can book a diagnostic tomorrow at 7:30 AM or 10 AM. The Camry is also due for an oil change.',
      ],
      ['customer', 'Ten works, and add the oil change. Can I get a loaner?'],
      [
        'ai',
        "Yes, I've reserved a loaner for you. Please bring your license and proof of insurance. The diagnostic is fifty-nine dollars and is waived if you approve the repair.",
      ],
      ['customer', 'Sounds good.'],
      [
        'ai',
        "You're all set for tomorrow at 10 AM: diagnostic, oil change and a loaner. You'll get a text confirmation and updates while the car is in the shop. See you then!",
      ],
    ]),
  },
  {
    id: 'real-estate',
    setting: 'A buyer calls about a listing sign outside 18 Maple Street.',
    steps: steps([
      [
        'ai',
        'Hi, thanks for calling Harbor Realty. This is the listing assistant. Which property are you calling about?',
      ],
      ['customer', "The house on Maple Street, number eighteen. What's the asking price?"],
      [
        'ai',
        '18 Maple Street is listed at six hundred forty-nine thousand: three bedrooms, two and a half baths, a renovated kitchen and a two-car garage. Would you like to see it?',
      ],
      ['customer', 'Maybe. Is it still available? And are the schools good?'],
      [
        'ai',
        "It's available, with an open house on Sunday. It is in the Oakwood school district, which is rated highly. Are you already pre-approved for a mortgage?",
      ],
      [
        'customer',
        "Yes, we're pre-approved up to seven hundred thousand, and we'd like to move within three months.",
      ],
      [
        'ai',
        'That fits well. Our agent, Priya, can show you the house privately on Saturday at 11 AM or 2 PM. Which would you prefer?',
      ],
      ['customer', 'Saturday at eleven.'],
      [
        'ai',
        "You're booked with Priya on Saturday at 11 AM at 18 Maple Street. I'll text you the confirmation and the disclosure documents. See you there!",
      ],
    ]),
  },
  {
    id: 'financial-services',
    setting: 'A credit union member calls about a lost debit card.',
    steps: steps([
      [
        'ai',
        'Thank you for calling Summit Credit Union. This is the virtual assistant. How can I help you today?',
      ],
      ['customer', 'I think I lost my debit card. I need to block it right away.'],
      [
        'ai',
        "I'll help you secure it now. First, to verify your identity, I've sent a six-digit code to the phone number on your account. Please read it to me.",
      ],
      ['customer', "Okay, it's four eight two, nine one seven."],
      [
        'ai',
        "Thank you, you're verified. I see a debit card ending in 3344. I've frozen it, so no new purchases or withdrawals will go through. Do you see any charges you don't recognise?",
      ],
      ['customer', 'Let me check. No, everything looks like mine.'],
      [
        'ai',
        "Good. I've ordered a replacement card to your address on file; it arrives in five to seven business days. Would you like a temporary digital card for your phone wallet today?",
      ],
      ['customer', 'Yes, that would help.'],
      [
        'ai',
        'Done. The digital card is in your banking app now. If you find the old card, it stays frozen for your safety. Is there anything else I can help with?',
      ],
    ]),
  },
  {
    id: 'court-reporting',
    setting: 'A paralegal calls Precision Court Reporting to schedule a deposition.',
    steps: steps([
      ['ai', 'Precision Court Reporting scheduling, this is the virtual coordinator. How can I help?'],
      ['customer', 'Hi, I need a court reporter for a deposition next Wednesday, March twelfth, at 10 AM.'],
      [
        'ai',
        'I can arrange that. What is the case name, and will the deposition be in person, remote, or hybrid?',
      ],
      [
        'customer',
        "It's Morgan versus Atlas Logistics. In person at our office, 200 State Street, Boston. One attorney will join by video.",
      ],
      [
        'ai',
        'Thank you. I have a certified reporter available, and I will add a remote-access link for the attorney joining by video. Do you also need a videographer or an interpreter?',
      ],
      ['customer', 'A videographer, yes. No interpreter.'],
      [
        'ai',
        'Noted. For the transcript, standard turnaround is ten business days, and expedited options are three days or next day. Which would you like?',
      ],
      ['customer', 'Standard is fine, with a rough draft the same evening if possible.'],
      [
        'ai',
        "Booked: a reporter and videographer on Wednesday, March twelfth at 10 AM at 200 State Street, with a remote link, standard transcript and a same-day rough draft. I'm emailing the confirmation to all counsel now.",
      ],
    ]),
  },
  {
    id: 'debt-collection',
    setting: 'The agent reaches a customer about an overdue account, with the required disclosures.',
    steps: steps([
      [
        'ai',
        'Hello, this is Sam, a virtual agent calling from Keystone Recovery on behalf of Riverside Medical Group. Am I speaking with Jordan Miller?',
      ],
      ['customer', 'Yes, this is Jordan.'],
      [
        'ai',
        'Thank you. To protect your privacy, please confirm the last four digits of your Social Security number or your date of birth.',
      ],
      ['customer', 'My date of birth is May ninth, nineteen eighty-five.'],
      [
        'ai',
        'Thank you, Jordan. This is an attempt to collect a debt, and any information obtained will be used for that purpose. Your account shows a balance of eight hundred forty dollars from a hospital visit last year.',
      ],
      ['customer', "I know. Money has been tight, and I can't pay it all at once."],
      [
        'ai',
        'I understand, and we can work with that. I can offer a plan of seventy dollars a month for twelve months, with no interest. Would that be manageable?',
      ],
      ['customer', 'Yes, I can do seventy a month, starting on the fifteenth.'],
      [
        'ai',
        "Thank you. Your plan starts on the fifteenth at seventy dollars a month. I'll send a written confirmation and a secure payment link by email. You can call us any time if your situation changes.",
      ],
    ]),
  },
  {
    id: 'bail-bonds',
    setting: 'A worried caller phones Liberty Bail Bonds late at night about a relative.',
    steps: steps([
      [
        'ai',
        'Liberty Bail Bonds, available 24 hours. This is the virtual assistant. How can I help you tonight?',
      ],
      ['customer', 'My brother was arrested a few hours ago. I need to get him out. What do I do?'],
      [
        'ai',
        "I'm sorry you're dealing with this, and I'll help you through it. Do you know which jail he is being held at, and has bail been set?",
      ],
      ['customer', "He's at the county jail downtown. They said bail is ten thousand dollars."],
      [
        'ai',
        "Thank you. In this state the bond premium is ten percent, so one thousand dollars, and payment plans are available. May I have your brother's full name and date of birth?",
      ],
      ['customer', "It's Marcus Reed, born October third, nineteen ninety-four."],
      [
        'ai',
        "Got it. I'll pass this to our licensed agent, Dana, who is on call now. She will confirm the booking details with the jail and call you within ten minutes to complete the paperwork.",
      ],
      ['customer', 'Thank you. How long until he is released?'],
      [
        'ai',
        "Once the bond is posted, release usually takes four to eight hours, depending on the jail. Dana will keep you updated. I'm connecting you to her now; please stay on the line.",
      ],
    ]),
  },
  {
    id: 'legal-intake',
    setting: 'A prospective client calls Whitman & Cole, a family and employment law firm, after hours.',
    steps: steps([
      [
        'ai',
        'Whitman and Cole, this is the firm’s virtual intake assistant. Are you calling about a new legal matter?',
      ],
      [
        'customer',
        'Yes. I was let go from my job last week, and I think it was because I reported safety problems.',
      ],
      [
        'ai',
        'I’m sorry that happened. That may be a whistleblower retaliation matter, which our employment team handles. May I have your full name and the name of your former employer?',
      ],
      ['customer', 'I’m Priya Nair, and the company is Lakeside Freight.'],
      [
        'ai',
        'Thank you, Priya. Before anyone discusses your case, we check for conflicts: has anyone from Lakeside Freight, or anyone else involved, ever contacted our firm?',
      ],
      ['customer', 'Not that I know of. Is there a deadline I should worry about?'],
      [
        'ai',
        'Some retaliation claims must be filed within a few months, so it’s good you called now. An attorney will confirm your deadlines; I can’t give legal advice myself. Attorney Elena Cole has a free thirty-minute consultation tomorrow at ten or at two. Which suits you?',
      ],
      ['customer', 'Ten o’clock, please. Should I bring anything?'],
      [
        'ai',
        'You’re booked with Elena Cole tomorrow at ten. Please bring your termination letter, any emails about the safety reports, and your last pay stub. I’m sending a confirmation and our intake form to your phone now.',
      ],
    ]),
  },
];

export const SCENARIOS: Readonly<Record<ScenarioId, DemoScenario>> = Object.fromEntries(
  SCENARIO_LIST.map((s) => [s.id, s]),
) as Record<ScenarioId, DemoScenario>;

/** Total length of a scenario in seconds: the sum of its step durations (spec §9). */
export const scenarioSeconds = (s: DemoScenario) => s.steps.reduce((sum, step) => sum + step.duration, 0);
