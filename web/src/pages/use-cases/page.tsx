import { CalendarCheck, CircleCheck, Headphones, PhoneCall, Sparkles } from 'lucide-react';
import { lazy, type MouseEvent, Suspense, useEffect, useRef, useState } from 'react';
import { PageMeta } from '../../components/seo/page-meta.tsx';
import { trackEvent } from '../../lib/analytics.ts';
import { openTryAgent } from '../../lib/events.ts';
import * as ui from '../demos/shared/ui.ts';
import { USE_CASES, type UseCase } from './use-cases.ts';

// The dialogs (and the scripts the demo plays) are chunks of their own, fetched when the
// browser is idle so the first opening is instant without weighing on the page's load.
const loadDemoDialog = () => import('./demo-dialog.tsx');
const loadRequestDialog = () => import('./request-demo-dialog.tsx');
const DemoDialog = lazy(loadDemoDialog);
const RequestDemoDialog = lazy(loadRequestDialog);

const DESCRIPTION =
  'Thirteen ways businesses put Parley’s AI voice agents on the phone: hotels, clinics, sales teams, retailers, dealerships, law firms and more. Hear each call played in synthesised speech.';

const METRIC_LABELS = { efficiency: 'Efficiency', satisfaction: 'Satisfaction', cost: 'Cost' } as const;

function UseCaseCard({
  useCase,
  onRequestDemo,
  onCheckIt,
}: {
  useCase: UseCase;
  onRequestDemo: (e: MouseEvent<HTMLButtonElement>) => void;
  onCheckIt: (e: MouseEvent<HTMLButtonElement>) => void;
}) {
  const { id, icon: Icon } = useCase;
  const titleId = `use-case-${id}`;
  return (
    <li className="flex">
      <article
        aria-labelledby={titleId}
        data-testid="use-case-card"
        className="flex w-full flex-col rounded-2xl border border-navy-700 bg-navy-900/70 p-6 transition hover:border-brand/50"
      >
        <div className="flex items-center justify-between gap-3">
          <span className="inline-flex h-11 w-11 items-center justify-center rounded-xl bg-brand/15 text-brand">
            <Icon className="h-5 w-5" aria-hidden="true" />
          </span>
          <span
            data-testid="industry"
            className="rounded-full border border-cyan-400/30 bg-cyan-400/10 px-2.5 py-0.5 text-xs font-medium text-cyan-100"
          >
            {useCase.industry}
          </span>
        </div>
        <h3 id={titleId} className="mt-4 text-xl font-semibold text-white">
          {useCase.title}
        </h3>
        <p className="mt-2 text-sm leading-relaxed text-slate-300">{useCase.description}</p>

        <h4
          id={`${titleId}-benefits`}
          className="mt-5 text-xs font-semibold tracking-wider text-slate-200 uppercase"
        >
          Key benefits
        </h4>
        <ul aria-labelledby={`${titleId}-benefits`} className="mt-2 space-y-2">
          {useCase.benefits.map((benefit) => (
            <li key={benefit} className="flex items-start gap-2 text-sm text-slate-200">
              <CircleCheck className="mt-0.5 h-4 w-4 shrink-0 text-emerald-300" aria-hidden="true" />
              {benefit}
            </li>
          ))}
        </ul>

        <h4
          id={`${titleId}-results`}
          className="mt-5 text-xs font-semibold tracking-wider text-slate-200 uppercase"
        >
          Typical results
        </h4>
        <dl aria-labelledby={`${titleId}-results`} className="mt-2 flex-1 space-y-2.5">
          {(Object.keys(METRIC_LABELS) as (keyof typeof METRIC_LABELS)[]).map((key) => {
            const claim = useCase.metrics[key];
            return (
              <div key={key} data-testid="result-claim">
                <dt className="text-xs font-medium tracking-wide text-slate-300 uppercase">
                  {METRIC_LABELS[key]}
                </dt>
                <dd className="text-sm text-slate-200">
                  <span className="mr-1 text-lg font-bold text-brand">{claim.value}</span>
                  {claim.label}
                </dd>
              </div>
            );
          })}
        </dl>

        {/* Side by side when they fit, else one per row: labels never wrap. */}
        <div className="mt-6 flex flex-wrap gap-2">
          <button
            type="button"
            aria-describedby={titleId}
            onClick={onRequestDemo}
            className={`${ui.secondaryButton} grow whitespace-nowrap`}
          >
            <CalendarCheck className="h-4 w-4" aria-hidden="true" />
            Request Demo
          </button>
          {useCase.demoScenario ? (
            <button
              type="button"
              aria-describedby={titleId}
              onClick={onCheckIt}
              onPointerEnter={() => void loadDemoDialog().catch(() => undefined)}
              className={`${ui.primaryButton} grow whitespace-nowrap`}
            >
              <Headphones className="h-4 w-4" aria-hidden="true" />
              Check It
            </button>
          ) : null}
        </div>
      </article>
    </li>
  );
}

/**
 * The Use Cases page (spec §2 "Use Cases page", §3 "Use-case card"): a hero with 'Request
 * Demo' (the demo request dialog) and 'Try AI Agent' (the floating widget, through the
 * 'openTryAgent' event), then thirteen industry cards, each with 'Request Demo' and, where it
 * has a scripted call, 'Check It' (the demo dialog).
 */
export default function UseCasesPage() {
  const [request, setRequest] = useState<{ useCase?: UseCase; open: boolean } | null>(null);
  const [demo, setDemo] = useState<{ useCase: UseCase; open: boolean } | null>(null);
  // The button that opened the current dialog, where focus returns when it closes.
  const opener = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const prefetch = () => {
      void loadRequestDialog().catch(() => undefined);
      void loadDemoDialog().catch(() => undefined);
    };
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(prefetch, { timeout: 4000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = setTimeout(prefetch, 2000);
    return () => clearTimeout(id);
  }, []);

  const requestDemo = (e: MouseEvent<HTMLButtonElement>, useCase?: UseCase) => {
    opener.current = e.currentTarget;
    trackEvent('navigation', { category: 'use_cases', label: `request_demo:${useCase?.id ?? 'hero'}` });
    setRequest({ useCase, open: true });
  };

  const checkIt = (e: MouseEvent<HTMLButtonElement>, useCase: UseCase) => {
    opener.current = e.currentTarget;
    trackEvent('navigation', { category: 'use_cases', label: `check_it:${useCase.id}` });
    setDemo({ useCase, open: true });
  };

  // The widget reports try_agent itself when it opens; reporting here too would count twice.
  const tryAgent = () => openTryAgent();

  return (
    <>
      <PageMeta title="Use Cases & Examples" description={DESCRIPTION} path="/use-cases" />
      <section
        aria-labelledby="use-cases-title"
        className="relative overflow-hidden bg-[radial-gradient(ellipse_at_top,_rgba(34,211,238,0.14),_transparent_60%)] pt-32 pb-16 sm:pt-40"
      >
        <div className="mx-auto max-w-4xl px-4 text-center sm:px-6">
          <p className="mx-auto mb-6 inline-flex items-center gap-2 rounded-full border border-cyan-400/30 bg-cyan-400/10 px-3 py-1 text-xs font-medium text-cyan-200">
            <Sparkles className="h-3.5 w-3.5" aria-hidden="true" />
            Use Cases & Examples
          </p>
          <h1 id="use-cases-title" className="text-4xl font-bold tracking-tight text-white sm:text-6xl">
            One AI voice agent, <span className="text-brand">built for your industry</span>
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-300">
            See how businesses use Parley to answer every call, qualify callers and book them in, from hotel
            front desks to bail bond agencies. Press <strong className="text-white">Check It</strong> on any
            card to hear a scripted call spoken by our voice engine.
          </p>
          <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
            <button
              type="button"
              onClick={(e) => requestDemo(e)}
              className="inline-flex items-center gap-2 rounded-xl bg-brand px-6 py-3 text-base font-semibold text-navy-950 shadow-lg shadow-cyan-500/25 transition hover:bg-brand-strong"
            >
              <CalendarCheck className="h-5 w-5" aria-hidden="true" />
              Request Demo
            </button>
            <button
              type="button"
              onClick={tryAgent}
              className="inline-flex items-center gap-2 rounded-xl border border-navy-600 bg-navy-900/60 px-6 py-3 text-base font-semibold text-slate-100 transition hover:border-brand hover:text-white"
            >
              <PhoneCall className="h-5 w-5" aria-hidden="true" />
              Try AI Agent
            </button>
          </div>
        </div>
      </section>

      <section aria-labelledby="use-case-list-title" className="pb-24">
        <div className={ui.container}>
          <h2 id="use-case-list-title" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">
            Use cases by industry
          </h2>
          <p className="mt-2 max-w-3xl text-slate-300">
            Thirteen industries where an AI agent on the phone pays for itself. Results shown are typical
            outcomes reported by customers in each industry; yours depend on call volume, workflows and
            integrations.
          </p>
          <ul className="mt-10 grid gap-6 md:grid-cols-2 xl:grid-cols-3">
            {USE_CASES.map((useCase) => (
              <UseCaseCard
                key={useCase.id}
                useCase={useCase}
                onRequestDemo={(e) => requestDemo(e, useCase)}
                onCheckIt={(e) => checkIt(e, useCase)}
              />
            ))}
          </ul>
        </div>
      </section>

      {request ? (
        <Suspense fallback={null}>
          <RequestDemoDialog
            useCase={request.useCase}
            open={request.open}
            returnFocusTo={opener.current}
            onOpenChange={(open) => setRequest((r) => r && { ...r, open })}
          />
        </Suspense>
      ) : null}
      {demo ? (
        <Suspense fallback={null}>
          <DemoDialog
            key={demo.useCase.id}
            useCase={demo.useCase}
            open={demo.open}
            returnFocusTo={opener.current}
            onOpenChange={(open) => setDemo((d) => d && { ...d, open })}
          />
        </Suspense>
      ) : null}
    </>
  );
}
