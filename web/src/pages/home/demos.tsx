import { ArrowRight, AudioLines, LayoutDashboard, PhoneCall, PhoneIncoming, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { trackEvent } from '../../lib/analytics.ts';
import { openTryAgent } from '../../lib/events.ts';
import { HomeSection } from './section.tsx';

const DEMOS = [
  {
    to: '/use-cases',
    icon: Sparkles,
    title: 'Use Cases & Examples',
    text: 'Thirteen industries, from hotel guest services to patient triage. Listen to scripted calls played in synthesised speech.',
  },
  {
    to: '/simulated-call-demo',
    icon: PhoneCall,
    title: 'Simulated Call Demo',
    text: 'Pick a scenario such as medical scheduling or a restaurant reservation and follow a full call step by step, with a live transcript.',
  },
  {
    to: '/voice-wave-demo',
    icon: AudioLines,
    title: 'Voice Wave Demo',
    text: 'Play with the animated voice visualiser our agents use on websites: intensity, size and colour presets.',
  },
  {
    to: '/voice-agent-preview',
    icon: LayoutDashboard,
    title: 'Voice Agent Platform',
    text: 'Tour the console where you configure an agent: voice, knowledge base, behaviour, actions and call history.',
  },
];

/** Demo scenarios (#demos): links to the interactive demos and a live call from the AI agent. */
export function Demos() {
  return (
    <HomeSection
      id="demos"
      eyebrow="Demo scenarios"
      title="Hear it for yourself"
      intro="Explore real conversations by industry, or have our AI agent phone you for a two-to-three-minute demo call."
    >
      <div className="grid gap-6 lg:grid-cols-3">
        <ul className="grid gap-6 sm:grid-cols-2 lg:col-span-2">
          {DEMOS.map(({ to, icon: Icon, title, text }) => (
            <li
              key={to}
              className="group relative flex h-full flex-col rounded-2xl border border-navy-700 bg-navy-900/70 p-6 transition hover:border-brand/60 hover:bg-navy-900"
            >
              <Icon className="h-6 w-6 text-brand" aria-hidden="true" />
              <h3 className="mt-4 text-lg font-semibold text-white">
                {/* The link covers the whole card; its name stays the short title. */}
                <Link
                  to={to}
                  onClick={() => trackEvent('navigation', { category: 'demos', label: to })}
                  className="rounded-sm after:absolute after:inset-0 after:rounded-2xl"
                >
                  {title}
                </Link>
              </h3>
              <p className="mt-2 flex-1 text-sm leading-relaxed text-slate-300">{text}</p>
              <span
                className="mt-4 inline-flex items-center gap-1 text-sm font-semibold text-brand"
                aria-hidden="true"
              >
                Open demo
                <ArrowRight className="h-4 w-4 transition group-hover:translate-x-0.5" />
              </span>
            </li>
          ))}
        </ul>
        <div className="flex flex-col justify-between rounded-2xl border border-cyan-400/30 bg-gradient-to-b from-cyan-400/10 to-navy-900 p-8">
          <div>
            <PhoneIncoming className="h-10 w-10 text-brand" aria-hidden="true" />
            <h3 className="mt-4 text-xl font-semibold text-white">Get a call from our AI agent</h3>
            <p className="mt-3 text-sm leading-relaxed text-slate-300">
              Enter your number and our agent calls you within 30 seconds. Ask it anything, or let it book you
              a consultation, just as it would for your customers.
            </p>
          </div>
          <button
            type="button"
            onClick={openTryAgent}
            className="mt-8 inline-flex items-center justify-center gap-2 rounded-xl bg-brand px-6 py-3 text-base font-semibold text-navy-950 shadow-lg shadow-cyan-500/20 transition hover:bg-brand-strong"
          >
            <PhoneCall className="h-5 w-5" aria-hidden="true" />
            Try a Live Call
          </button>
        </div>
      </div>
    </HomeSection>
  );
}
