import { ArrowRight, CalendarCheck, Clock, PhoneCall, ShieldCheck } from 'lucide-react';
import { SectionLink } from '../../components/layout/section-link.tsx';
import { openBookingModal } from '../../lib/events.ts';

const HIGHLIGHTS = [
  { icon: PhoneCall, label: 'Answers every call, 24/7' },
  { icon: CalendarCheck, label: 'Books straight into your calendar' },
  { icon: ShieldCheck, label: 'SOC 2 Type II · GDPR · ISO 27001' },
];

export const HERO_STATS = [
  { value: '98.7%', label: 'accuracy' },
  { value: '50+', label: 'languages' },
  { value: '99.9%', label: 'uptime' },
  { value: '1M+', label: 'minutes handled' },
];

/** A sound wave drawn in SVG (no image request): the hero's backdrop motif. */
function WaveBackdrop() {
  const bars = Array.from({ length: 48 }, (_, i) => {
    const h = 12 + Math.round(Math.abs(Math.sin(i * 0.55) * Math.cos(i * 0.17)) * 88);
    return { x: i * 25 + 6, h };
  });
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 1200 120"
      preserveAspectRatio="none"
      className="pointer-events-none absolute inset-x-0 bottom-0 h-32 w-full opacity-25"
    >
      {bars.map((b) => (
        <rect key={b.x} x={b.x} y={120 - b.h} width="10" height={b.h} rx="5" className="fill-brand" />
      ))}
    </svg>
  );
}

/** Hero: the promise, 'Request Demo' (opens the booking modal) and the headline numbers. */
export function Hero() {
  return (
    <section
      aria-labelledby="hero-title"
      className="relative overflow-hidden bg-[radial-gradient(ellipse_at_top,_rgba(34,211,238,0.16),_transparent_60%)] pt-32 pb-24 sm:pt-40"
    >
      <WaveBackdrop />
      <div className="relative mx-auto max-w-4xl px-4 text-center sm:px-6">
        <p className="mx-auto mb-6 inline-flex items-center gap-2 rounded-full border border-cyan-400/30 bg-cyan-400/10 px-3 py-1 text-xs font-medium text-cyan-200">
          <Clock className="h-3.5 w-3.5" aria-hidden="true" />
          Live in days, not months
        </p>
        <h1 id="hero-title" className="text-4xl font-bold tracking-tight text-white sm:text-6xl">
          AI voice agents that answer your calls and <span className="text-brand">book appointments</span>
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-300">
          Parley picks up every call in a natural voice, answers questions, qualifies callers and schedules
          them straight into your calendar, for healthcare, real estate, legal, finance and hospitality teams.
        </p>
        <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <button
            type="button"
            onClick={openBookingModal}
            className="inline-flex items-center gap-2 rounded-xl bg-brand px-6 py-3 text-base font-semibold text-navy-950 shadow-lg shadow-cyan-500/25 transition hover:bg-brand-strong"
          >
            <CalendarCheck className="h-5 w-5" aria-hidden="true" />
            Request Demo
          </button>
          <SectionLink
            id="demos"
            trackLabel="hero_demos"
            className="inline-flex items-center gap-2 rounded-xl border border-navy-600 bg-navy-900/60 px-6 py-3 text-base font-semibold text-slate-100 transition hover:border-brand hover:text-white"
          >
            Explore the Demos
            <ArrowRight className="h-5 w-5" aria-hidden="true" />
          </SectionLink>
        </div>
        <ul className="mt-10 flex flex-wrap items-center justify-center gap-x-6 gap-y-2 text-sm text-slate-300">
          {HIGHLIGHTS.map(({ icon: Icon, label }) => (
            <li key={label} className="inline-flex items-center gap-2">
              <Icon className="h-4 w-4 text-brand" aria-hidden="true" />
              {label}
            </li>
          ))}
        </ul>
        <dl className="mx-auto mt-16 grid max-w-3xl grid-cols-2 gap-4 sm:grid-cols-4">
          {HERO_STATS.map((s) => (
            <div
              key={s.label}
              className="flex flex-col-reverse rounded-xl border border-navy-700 bg-navy-900/80 px-4 py-5"
            >
              <dt className="mt-1 text-xs tracking-wide text-slate-300 uppercase">{s.label}</dt>
              <dd className="text-2xl font-bold text-white">{s.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
