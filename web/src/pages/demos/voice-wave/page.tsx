import clsx from 'clsx';
import {
  AudioLines,
  LayoutTemplate,
  type LucideIcon,
  Mail,
  Mic,
  MicOff,
  MonitorSmartphone,
  Play,
  RotateCcw,
  Square,
} from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { PageMeta } from '../../../components/seo/page-meta.tsx';
import * as ui from '../shared/ui.ts';
import {
  DRIFT_INTERVAL_MS,
  INITIAL_INTENSITY,
  INTENSITY_MAX,
  INTENSITY_MIN,
  INTENSITY_STEP,
  nextIntensity,
  sliderIntensity,
  WAVE_SIZES,
  WAVE_VARIANTS,
  type WaveSize,
  type WaveVariant,
} from './drift.ts';
import { usePrefersReducedMotion, VoiceWave } from './voice-wave.tsx';

const DESCRIPTION =
  'An interactive voice-wave animation: start the demo, tune intensity, size and colour, try the presets and see how to use the component on your own pages.';

const SIZE_LABELS: Record<WaveSize, string> = { sm: 'Small', md: 'Medium', lg: 'Large' };
const VARIANT_LABELS: Record<WaveVariant, string> = { primary: 'Primary', accent: 'Accent', mono: 'Mono' };

const PRESETS = [
  {
    name: 'Hero Section',
    icon: LayoutTemplate,
    description: 'A large, bold wave to greet visitors on a landing page.',
    size: 'lg',
    variant: 'primary',
    intensity: 0.8,
  },
  {
    name: 'Demo Widget',
    icon: MonitorSmartphone,
    description: 'A mid-sized accent wave for a live call or agent widget.',
    size: 'md',
    variant: 'accent',
    intensity: 0.6,
  },
  {
    name: 'Contact Form',
    icon: Mail,
    description: 'A small, quiet wave beside a form or call-to-action.',
    size: 'sm',
    variant: 'mono',
    intensity: 0.3,
  },
] as const satisfies readonly {
  name: string;
  icon: LucideIcon;
  description: string;
  size: WaveSize;
  variant: WaveVariant;
  intensity: number;
}[];

const USE_CASES = [
  {
    title: 'Live call indicators',
    text: 'Show that the AI agent is speaking or listening during a call or a web demo.',
  },
  {
    title: 'Hero and landing sections',
    text: 'Give a voice product an instantly recognisable, moving signature.',
  },
  {
    title: 'Processing states',
    text: 'Replace a spinner while speech is being generated or a call is connecting.',
  },
  {
    title: 'Forms and call-to-actions',
    text: 'A subtle wave beside “Call me now” tells visitors a real voice will answer.',
  },
];

const SNIPPET = `<VoiceWave
  active={isSpeaking}
  intensity={0.6}   // 0.1 – 1
  size="md"         // "sm" | "md" | "lg"
  variant="primary" // "primary" | "accent" | "mono"
/>`;

function ChoiceGroup<K extends string>({
  legend,
  name,
  options,
  labels,
  value,
  onChange,
}: {
  legend: string;
  name: string;
  options: readonly K[];
  labels: Record<K, string>;
  value: K;
  onChange: (value: K) => void;
}) {
  return (
    <fieldset>
      <legend className={ui.label}>{legend}</legend>
      <div className="mt-2 grid grid-cols-3 gap-1 rounded-xl border border-navy-700 bg-navy-950 p-1">
        {options.map((o) => (
          <label key={o} className="relative">
            <input
              type="radio"
              name={name}
              value={o}
              checked={value === o}
              onChange={() => onChange(o)}
              className="peer sr-only"
            />
            <span className="block cursor-pointer rounded-lg px-2 py-1.5 text-center text-sm font-medium text-slate-300 transition peer-checked:bg-brand peer-checked:text-navy-950 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand hover:text-white peer-checked:hover:text-navy-950">
              {labels[o]}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The voice wave demo (spec §2 "Voice wave demo", §4, §5, §9): Start/Stop Demo and Reset; an
 * intensity slider (0.1–1, step 0.1, initially 0.5) that follows the random drift while the
 * demo runs (every 300 ms, up to ±0.15, within 0.2–1); size and variant choices; a simulated
 * microphone panel that toggles the same state; three presets; an implementation guide.
 */
export default function VoiceWaveDemoPage() {
  const id = useId();
  const [active, setActive] = useState(false);
  const [intensity, setIntensity] = useState(INITIAL_INTENSITY);
  const [size, setSize] = useState<WaveSize>('md');
  const [variant, setVariant] = useState<WaveVariant>('primary');

  // The drift is motion nobody asked for: a visitor who prefers reduced motion gets a wave that
  // holds the intensity they set (the bars would otherwise jump every DRIFT_INTERVAL_MS).
  const reducedMotion = usePrefersReducedMotion();
  useEffect(() => {
    if (!active || reducedMotion) return;
    const timer = setInterval(
      () => setIntensity((current) => nextIntensity(current, Math.random())),
      DRIFT_INTERVAL_MS,
    );
    return () => clearInterval(timer);
  }, [active, reducedMotion]);

  const reset = () => {
    setActive(false);
    setIntensity(INITIAL_INTENSITY);
  };

  return (
    <section aria-labelledby="wave-title" className={ui.pageSection}>
      <PageMeta title="Voice Wave Demo" description={DESCRIPTION} path="/voice-wave-demo" />
      <div className={ui.container}>
        <header className="max-w-3xl">
          <p className={ui.eyebrow}>Voice Wave Demo</p>
          <h1 id="wave-title" className={ui.pageTitle}>
            A voice you can see
          </h1>
          <p className={ui.lead}>{DESCRIPTION}</p>
        </header>

        <div className="mt-10 grid gap-6 lg:grid-cols-3">
          <div className={clsx(ui.card, 'flex flex-col lg:col-span-2')}>
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 className={ui.cardTitle}>Live preview</h2>
              <p
                className={clsx(
                  ui.badge,
                  active ? 'bg-emerald-400/15 text-emerald-200' : 'bg-navy-700 text-slate-200',
                )}
              >
                <span
                  aria-hidden="true"
                  className={clsx('h-2 w-2 rounded-full', active ? 'bg-emerald-300' : 'bg-slate-400')}
                />
                {active ? 'Demo active' : 'Demo inactive'}
              </p>
            </div>
            <div className="my-6 flex min-h-52 flex-1 items-center justify-center rounded-xl border border-navy-700 bg-navy-950 px-4 py-6">
              <VoiceWave active={active} intensity={intensity} size={size} variant={variant} />
            </div>
            <div className="flex flex-wrap gap-3">
              <button type="button" onClick={() => setActive((a) => !a)} className={ui.primaryButton}>
                {active ? (
                  <Square className="h-4 w-4" aria-hidden="true" />
                ) : (
                  <Play className="h-4 w-4" aria-hidden="true" />
                )}
                {active ? 'Stop Demo' : 'Start Demo'}
              </button>
              <button type="button" onClick={reset} className={ui.secondaryButton}>
                <RotateCcw className="h-4 w-4" aria-hidden="true" />
                Reset
              </button>
            </div>
          </div>

          <div className={clsx(ui.card, 'space-y-6')}>
            <h2 className={ui.cardTitle}>Controls</h2>
            <div>
              <div className="flex items-center justify-between">
                <label htmlFor={`${id}-intensity`} className={ui.label}>
                  Intensity
                </label>
                <span data-testid="wave-intensity" className="font-mono text-sm text-white tabular-nums">
                  {intensity.toFixed(2)}
                </span>
              </div>
              <input
                id={`${id}-intensity`}
                type="range"
                min={INTENSITY_MIN}
                max={INTENSITY_MAX}
                step={INTENSITY_STEP}
                value={intensity}
                aria-valuetext={intensity.toFixed(2)}
                onChange={(e) => setIntensity(sliderIntensity(Number(e.target.value)))}
                className="mt-2 w-full accent-cyan-400"
              />
              <p className="mt-1 text-xs text-slate-300">
                {reducedMotion
                  ? 'Reduced motion is on: the intensity holds where you set it.'
                  : `While the demo runs, the intensity drifts a little every ${DRIFT_INTERVAL_MS} ms.`}
              </p>
            </div>
            <ChoiceGroup
              legend="Size"
              name={`${id}-size`}
              options={WAVE_SIZES}
              labels={SIZE_LABELS}
              value={size}
              onChange={setSize}
            />
            <ChoiceGroup
              legend="Variant"
              name={`${id}-variant`}
              options={WAVE_VARIANTS}
              labels={VARIANT_LABELS}
              value={variant}
              onChange={setVariant}
            />
          </div>
        </div>

        <div className="mt-6 grid gap-6 lg:grid-cols-3">
          <section aria-labelledby={`${id}-mic`} className={ui.card}>
            <h2 id={`${id}-mic`} className={ui.cardTitle}>
              Microphone integration
            </h2>
            <button
              type="button"
              aria-pressed={active}
              onClick={() => setActive((a) => !a)}
              className={clsx(
                'mt-4 flex w-full items-center gap-4 rounded-xl border p-4 text-left transition',
                active
                  ? 'border-emerald-300/50 bg-emerald-400/10'
                  : 'border-navy-600 bg-navy-800 hover:border-brand',
              )}
            >
              <span
                className={clsx(
                  'inline-flex h-12 w-12 shrink-0 items-center justify-center rounded-full',
                  active ? 'bg-emerald-300 text-navy-950' : 'bg-navy-700 text-slate-100',
                )}
              >
                {active ? (
                  <Mic className="h-6 w-6" aria-hidden="true" />
                ) : (
                  <MicOff className="h-6 w-6" aria-hidden="true" />
                )}
              </span>
              <span>
                <span className="block font-medium text-white">Simulated microphone</span>
                <span className="block text-sm text-slate-300">
                  {active ? 'Listening (simulated). Click to stop.' : 'Click to simulate someone speaking.'}
                </span>
              </span>
            </button>
            <p className="mt-3 text-xs text-slate-300">
              This is a simulation: the page never asks for or uses your microphone. In a real integration the
              wave follows the live audio level of the call.
            </p>
          </section>

          <section aria-labelledby={`${id}-presets`} className={clsx(ui.card, 'lg:col-span-2')}>
            <h2 id={`${id}-presets`} className={ui.cardTitle}>
              Presets
            </h2>
            <ul className="mt-4 grid gap-3 sm:grid-cols-3">
              {PRESETS.map((p) => {
                const selected = p.size === size && p.variant === variant && p.intensity === intensity;
                return (
                  <li key={p.name}>
                    <button
                      type="button"
                      onClick={() => {
                        setSize(p.size);
                        setVariant(p.variant);
                        setIntensity(p.intensity);
                      }}
                      className={clsx(
                        'h-full w-full rounded-xl border p-4 text-left transition',
                        selected
                          ? 'border-brand bg-brand/10'
                          : 'border-navy-600 bg-navy-800 hover:border-brand',
                      )}
                    >
                      <p.icon className="h-5 w-5 text-brand" aria-hidden="true" />
                      <span className="mt-2 block font-medium text-white">{p.name}</span>
                      <span className="mt-1 block text-sm text-slate-300">{p.description}</span>
                      <span className="mt-2 block font-mono text-xs text-slate-300">
                        {p.size} · {p.variant} · {p.intensity.toFixed(1)}
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          </section>
        </div>

        <section aria-labelledby={`${id}-guide`} className={clsx(ui.card, 'mt-6')}>
          <h2 id={`${id}-guide`} className={clsx(ui.cardTitle, 'flex items-center gap-2')}>
            <AudioLines className="h-5 w-5 text-brand" aria-hidden="true" />
            Implementation guide
          </h2>
          <div className="mt-4 grid gap-6 lg:grid-cols-2">
            <div className="min-w-0">
              <p className="text-sm text-slate-300">
                Drop the component wherever a voice is speaking and drive it from your call state. It draws
                with requestAnimationFrame, costs no network requests and holds still for visitors who prefer
                reduced motion.
              </p>
              <pre className="mt-4 overflow-x-auto rounded-xl border border-navy-700 bg-navy-950 p-4 text-sm text-slate-100">
                <code>{SNIPPET}</code>
              </pre>
            </div>
            <div className="min-w-0">
              <h3 className="text-sm font-semibold text-slate-200">Use cases</h3>
              <ul className="mt-2 space-y-3">
                {USE_CASES.map((u) => (
                  <li key={u.title} className="rounded-xl border border-navy-700 bg-navy-800/60 p-3">
                    <span className="block text-sm font-medium text-white">{u.title}</span>
                    <span className="block text-sm text-slate-300">{u.text}</span>
                  </li>
                ))}
              </ul>
            </div>
          </div>
        </section>
      </div>
    </section>
  );
}
