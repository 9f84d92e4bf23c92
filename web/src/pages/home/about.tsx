import { Handshake, MapPin, ShieldCheck, Target } from 'lucide-react';
import { COMPANY_LOCATION } from '../../components/contact/company.ts';
import { COMPLIANCE_BADGES } from '../../components/layout/footer.tsx';
import { cardClass, HomeSection } from './section.tsx';

const FIGURES = [
  { value: '100+', label: 'customers' },
  { value: '1M+', label: 'minutes of calls handled' },
  { value: '50+', label: 'languages spoken' },
  { value: '99.9%', label: 'uptime' },
];

/** About (#about): who we are, the numbers, the partnership and compliance. */
export function About() {
  return (
    <HomeSection
      id="about"
      eyebrow="About Parley"
      title="We make sure no call goes unanswered"
      intro="Parley was founded on a simple observation: the businesses that depend most on the phone are the ones least able to answer it all day."
    >
      <div className="grid gap-10 lg:grid-cols-2 lg:items-start">
        <div className="space-y-5 text-slate-300">
          <p>
            Clinics, brokerages, law firms, lenders and hotels lose customers every day to voicemail, hold
            music and missed calls after hours. We build AI voice agents that pick up on the first ring, sound
            like a member of your team, and get the caller what they need: an answer, an appointment, or the
            right person.
          </p>
          <p>
            Our team of speech, machine-learning and customer-operations specialists works from{' '}
            {COMPANY_LOCATION}. Every deployment starts with your existing call scripts and ends with an agent
            your staff trust.
          </p>
          <ul className="space-y-3">
            <li className="flex gap-3">
              <Target className="mt-0.5 h-5 w-5 shrink-0 text-brand" aria-hidden="true" />
              <span>
                <strong className="font-semibold text-white">Our mission:</strong> make great phone service
                affordable for every business, in every language its customers speak.
              </span>
            </li>
            <li className="flex gap-3">
              <Handshake className="mt-0.5 h-5 w-5 shrink-0 text-brand" aria-hidden="true" />
              <span>
                <strong className="font-semibold text-white">Our partners:</strong> we partner with a voice AI
                platform provider for real-time speech, and integrate with the calendars, CRMs and practice
                systems you already use.
              </span>
            </li>
            <li className="flex gap-3">
              <MapPin className="mt-0.5 h-5 w-5 shrink-0 text-brand" aria-hidden="true" />
              <span>
                <strong className="font-semibold text-white">Headquarters:</strong> {COMPANY_LOCATION}
              </span>
            </li>
          </ul>
        </div>
        <div className="space-y-6">
          <dl className="grid grid-cols-2 gap-4">
            {FIGURES.map((f) => (
              <div key={f.label} className={`${cardClass} flex flex-col-reverse`}>
                <dt className="mt-1 text-sm text-slate-300">{f.label}</dt>
                <dd className="text-3xl font-bold text-white">{f.value}</dd>
              </div>
            ))}
          </dl>
          <div className={cardClass}>
            <h3 className="flex items-center gap-2 font-semibold text-white">
              <ShieldCheck className="h-5 w-5 text-brand" aria-hidden="true" />
              Security and compliance
            </h3>
            <p className="mt-2 text-sm text-slate-300">
              Independently audited and built for regulated industries.
            </p>
            <ul className="mt-4 flex flex-wrap gap-2">
              {COMPLIANCE_BADGES.map((b) => (
                <li
                  key={b}
                  className="rounded-full border border-cyan-400/40 bg-cyan-400/10 px-3 py-1 text-xs font-semibold text-cyan-100"
                >
                  {b}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
    </HomeSection>
  );
}
