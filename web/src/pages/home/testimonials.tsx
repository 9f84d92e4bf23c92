import { Quote, Star } from 'lucide-react';
import { HomeSection } from './section.tsx';

const TESTIMONIALS = [
  {
    quote:
      'We used to miss a third of our calls during lunch and after hours. Now every patient gets an answer and a booked appointment, and our front desk finally has time for the people in the waiting room.',
    role: 'Practice Manager',
    org: 'Multi-location dental group',
    industry: 'Healthcare',
  },
  {
    quote:
      'The agent qualifies buyers at 11 PM on a Sunday and books showings straight into our agents’ calendars. Our response time went from hours to seconds.',
    role: 'Operations Director',
    org: 'Residential real estate brokerage',
    industry: 'Real Estate',
  },
  {
    quote:
      'Intake calls are consistent now: the same questions, the same disclosures, a clean summary in our case system. We were live in a week.',
    role: 'Managing Partner',
    org: 'Personal injury law firm',
    industry: 'Legal',
  },
];

/** Testimonials: what teams say after going live. */
export function Testimonials() {
  return (
    <HomeSection
      id="testimonials"
      eyebrow="Testimonials"
      title="Trusted by 100+ customers"
      intro="Teams in healthcare, real estate, legal, finance and hospitality rely on Parley to answer their phones."
    >
      <ul className="grid gap-6 lg:grid-cols-3">
        {TESTIMONIALS.map((t) => (
          <li key={t.role} className="flex">
            <figure className="flex flex-1 flex-col rounded-2xl border border-navy-700 bg-navy-900/70 p-6">
              <div className="flex items-center justify-between">
                <Quote className="h-8 w-8 text-brand/70" aria-hidden="true" />
                <p className="flex gap-0.5" role="img" aria-label="Rated 5 out of 5">
                  {[1, 2, 3, 4, 5].map((n) => (
                    <Star key={n} className="h-4 w-4 fill-amber-300 text-amber-300" aria-hidden="true" />
                  ))}
                </p>
              </div>
              <blockquote className="mt-4 flex-1 text-slate-200">
                <p>“{t.quote}”</p>
              </blockquote>
              <figcaption className="mt-6 border-t border-navy-700 pt-4 text-sm">
                <span className="block font-semibold text-white">{t.role}</span>
                <span className="block text-slate-300">
                  {t.org} · {t.industry}
                </span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </HomeSection>
  );
}
