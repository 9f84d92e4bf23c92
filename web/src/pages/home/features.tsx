import { BarChart3, CalendarCheck, Languages, MessageSquare, PhoneForwarded, Workflow } from 'lucide-react';
import { cardClass, HomeSection } from './section.tsx';

const FEATURES = [
  {
    icon: MessageSquare,
    title: 'Natural conversations',
    text: 'Callers talk the way they normally do. The agent understands intent, handles interruptions and answers follow-up questions in a warm, human-sounding voice.',
  },
  {
    icon: CalendarCheck,
    title: 'Appointment booking',
    text: 'Checks live availability, offers times, books, reschedules and cancels appointments, then sends the confirmation while the caller is still on the line.',
  },
  {
    icon: Languages,
    title: '50+ languages',
    text: 'Greets callers in their own language and switches mid-call when they do, so every customer is served without a bilingual rota.',
  },
  {
    icon: Workflow,
    title: 'Lead qualification',
    text: 'Asks your qualifying questions, scores the answers and routes hot leads to sales with a summary, so your team calls back the right people first.',
  },
  {
    icon: PhoneForwarded,
    title: 'Smart call transfer',
    text: 'Recognises urgent or sensitive calls and transfers them to the right person with context, so nobody has to repeat themselves.',
  },
  {
    icon: BarChart3,
    title: 'Transcripts and analytics',
    text: 'Every call is transcribed and summarised. See call volumes, outcomes and common questions, and spot what to improve at a glance.',
  },
];

/** Features (#features): what the agent does on every call. */
export function Features() {
  return (
    <HomeSection
      id="features"
      eyebrow="Features"
      title="Everything a great receptionist does, on every call"
      intro="Parley's voice agents answer instantly, day and night, and handle the routine calls that tie up your front desk."
    >
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map(({ icon: Icon, title, text }) => (
          <li key={title} className={cardClass}>
            <span className="inline-flex h-11 w-11 items-center justify-center rounded-xl bg-cyan-400/10 text-brand">
              <Icon className="h-6 w-6" aria-hidden="true" />
            </span>
            <h3 className="mt-4 text-lg font-semibold text-white">{title}</h3>
            <p className="mt-2 text-sm leading-relaxed text-slate-300">{text}</p>
          </li>
        ))}
      </ul>
    </HomeSection>
  );
}
