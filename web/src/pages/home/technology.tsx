import { AudioLines, Blocks, Brain, Handshake, Lock, Mic, Server } from 'lucide-react';
import { cardClass, HomeSection } from './section.tsx';

const LAYERS = [
  {
    icon: Mic,
    title: 'Speech recognition',
    text: 'Transcribes callers with 98.7% accuracy across accents, background noise and phone-line audio.',
  },
  {
    icon: Brain,
    title: 'Conversational understanding',
    text: 'A language model grounded in your knowledge base keeps answers on-script and on-brand, and knows when to hand over to a person.',
  },
  {
    icon: AudioLines,
    title: 'Natural voice synthesis',
    text: 'Lifelike voices in 50+ languages, with the pacing and tone of a friendly professional rather than a phone menu.',
  },
  {
    icon: Blocks,
    title: 'Integrations',
    text: 'Connects to the calendars, CRMs and practice-management systems you already use, so bookings and notes land where your team works.',
  },
  {
    icon: Server,
    title: 'Built for uptime',
    text: 'Redundant infrastructure with a 99.9% uptime commitment, monitored around the clock, so calls are answered even at peak hours.',
  },
  {
    icon: Lock,
    title: 'Security and compliance',
    text: 'Encrypted in transit and at rest, with SOC 2 Type II, GDPR and ISO 27001 compliance and configurable retention for recordings and transcripts.',
  },
];

/** Technology: the stack behind a call and the platform partnership. */
export function Technology() {
  return (
    <HomeSection
      id="technology"
      eyebrow="Technology"
      title="Enterprise-grade voice AI under the hood"
      intro="Every call runs through a pipeline tuned for phone audio: it hears the caller, understands the request, acts on it and answers in a natural voice."
    >
      <div className="grid gap-6 lg:grid-cols-3">
        <ul className="grid gap-6 sm:grid-cols-2 lg:col-span-2">
          {LAYERS.map(({ icon: Icon, title, text }) => (
            <li key={title} className={cardClass}>
              <div className="flex items-center gap-3">
                <Icon className="h-5 w-5 text-brand" aria-hidden="true" />
                <h3 className="font-semibold text-white">{title}</h3>
              </div>
              <p className="mt-3 text-sm leading-relaxed text-slate-300">{text}</p>
            </li>
          ))}
        </ul>
        <aside
          aria-labelledby="partner-title"
          className="flex flex-col justify-center rounded-2xl border border-cyan-400/30 bg-gradient-to-b from-cyan-400/10 to-navy-900 p-8"
        >
          <Handshake className="h-10 w-10 text-brand" aria-hidden="true" />
          <h3 id="partner-title" className="mt-4 text-xl font-semibold text-white">
            Powered by a leading voice AI platform
          </h3>
          <p className="mt-3 text-sm leading-relaxed text-slate-300">
            Parley partners with a voice AI platform provider for its real-time speech infrastructure, and
            adds the industry playbooks, integrations, onboarding and support your team needs to go live
            quickly.
          </p>
        </aside>
      </div>
    </HomeSection>
  );
}
