import clsx from 'clsx';
import { Check } from 'lucide-react';
import { trackEvent } from '../../lib/analytics.ts';
import { openBookingModal } from '../../lib/events.ts';
import { HomeSection } from './section.tsx';

/** The three plans of the spec (§2 "Pricing plans"), verbatim. */
export const PLANS = [
  {
    name: 'Starter',
    price: '$299',
    period: '/month',
    value: 299,
    summary: 'For small teams that want every call answered.',
    features: ['Up to 1,000 minutes', '5 languages', 'Basic analytics', 'Email support'],
    cta: 'Get Started',
    popular: false,
  },
  {
    name: 'Professional',
    price: '$899',
    period: '/month',
    value: 899,
    summary: 'For growing businesses automating bookings and intake.',
    features: [
      'Up to 5,000 minutes',
      '25+ languages',
      'Advanced analytics',
      'Workflow builder',
      'Priority support',
    ],
    cta: 'Get Started',
    popular: true,
  },
  {
    name: 'Enterprise',
    price: 'Custom',
    period: '',
    value: undefined,
    summary: 'For organisations with high volumes and custom needs.',
    features: [
      'Unlimited minutes',
      'All languages',
      'White-label',
      'Dedicated manager',
      '24/7 phone support',
    ],
    cta: 'Contact Sales',
    popular: false,
  },
] as const;

/** Pricing (#pricing): each plan's button opens the booking modal and reports pricing_click. */
export function Pricing() {
  return (
    <HomeSection
      id="pricing"
      eyebrow="Pricing"
      title="Simple, transparent pricing"
      intro="Pick the plan that fits your call volume. Every plan starts with a demo so we can set the agent up around your business."
    >
      <ul className="grid gap-6 lg:grid-cols-3 lg:items-stretch">
        {PLANS.map((plan) => (
          <li
            key={plan.name}
            data-testid="pricing-plan"
            className={clsx(
              'relative flex flex-col rounded-2xl border p-8',
              plan.popular
                ? 'border-brand bg-navy-900 shadow-xl shadow-cyan-500/10 lg:-my-4 lg:py-12'
                : 'border-navy-700 bg-navy-900/70',
            )}
          >
            {plan.popular ? (
              <p className="absolute -top-3.5 left-1/2 -translate-x-1/2 rounded-full bg-brand px-3 py-1 text-xs font-semibold text-navy-950">
                Most Popular
              </p>
            ) : null}
            <h3 className="text-xl font-semibold text-white">{plan.name}</h3>
            <p className="mt-2 text-sm text-slate-300">{plan.summary}</p>
            <p className="mt-6 flex items-baseline gap-1">
              <span className="text-4xl font-bold tracking-tight text-white">{plan.price}</span>
              {plan.period ? <span className="text-slate-300">{plan.period}</span> : null}
            </p>
            <ul className="mt-8 flex-1 space-y-3 text-sm text-slate-200">
              {plan.features.map((f) => (
                <li key={f} className="flex items-start gap-2">
                  <Check className="mt-0.5 h-4 w-4 shrink-0 text-brand" aria-hidden="true" />
                  {f}
                </li>
              ))}
            </ul>
            <button
              type="button"
              onClick={() => {
                trackEvent('pricing_click', { category: 'pricing', label: plan.name, value: plan.value });
                openBookingModal();
              }}
              className={clsx(
                'mt-8 rounded-xl px-6 py-3 text-base font-semibold transition',
                plan.popular
                  ? 'bg-brand text-navy-950 shadow-lg shadow-cyan-500/20 hover:bg-brand-strong'
                  : 'border border-navy-600 text-white hover:border-brand',
              )}
            >
              {plan.cta}
              <span className="sr-only"> — {plan.name} plan</span>
            </button>
          </li>
        ))}
      </ul>
    </HomeSection>
  );
}
