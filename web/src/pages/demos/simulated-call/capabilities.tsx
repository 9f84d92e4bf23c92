import { BarChart3, Gauge, Headphones, Languages, ShieldCheck, Workflow } from 'lucide-react';
import { useId } from 'react';
import * as ui from '../shared/ui.ts';

const CAPABILITIES = [
  {
    icon: Headphones,
    title: 'Natural voices',
    text: 'Human-sounding speech with distinct voices for each side.',
  },
  {
    icon: Workflow,
    title: 'Industry scripts',
    text: 'Flows tuned for scheduling, reservations, sales and more.',
  },
  { icon: Languages, title: '50+ languages', text: 'Callers are answered in the language they speak.' },
  {
    icon: ShieldCheck,
    title: 'Compliance built in',
    text: 'Disclosures and guardrails for regulated industries.',
  },
  { icon: Gauge, title: 'Fast responses', text: 'Sub-second replies keep the conversation flowing.' },
  { icon: BarChart3, title: 'Call analytics', text: 'Every call is transcribed, summarised and measured.' },
];

/** 'What the agent can do on your calls': the six capability cards under the demo. */
export function Capabilities() {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-capabilities`} className="mt-12">
      <h2 id={`${id}-capabilities`} className="text-2xl font-bold text-white">
        What the agent can do on your calls
      </h2>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {CAPABILITIES.map((c) => (
          <li key={c.title} className={ui.card}>
            <c.icon className="h-6 w-6 text-brand" aria-hidden="true" />
            <h3 className="mt-3 font-semibold text-white">{c.title}</h3>
            <p className="mt-1 text-sm text-slate-300">{c.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
