import {
  ArrowLeft,
  BarChart3,
  CalendarDays,
  Clock,
  Globe2,
  Mail,
  MapPin,
  MessageSquare,
  Mic,
  Phone,
  Quote,
  Route,
  Star,
  Target,
} from 'lucide-react';
import { Link } from 'react-router';
import { BookingFlowView } from '../components/booking/booking-flow.tsx';
import { useBookingFlow } from '../components/booking/use-booking-flow.ts';
import {
  COMPANY_LOCATION,
  SALES_EMAIL,
  SALES_HOURS,
  SALES_PHONE,
  SALES_PHONE_HREF,
} from '../components/contact/company.ts';
import { SectionLink } from '../components/layout/section-link.tsx';
import { PageMeta } from '../components/seo/page-meta.tsx';

const EXPERIENCE = [
  {
    icon: Mic,
    title: 'Live voice AI demo',
    text: 'Hear an agent answer, qualify and book a caller in real time, and put your own questions to it.',
  },
  {
    icon: Target,
    title: 'Custom use case analysis',
    text: 'We map your call types, opening hours and peak volumes to the conversations the agent would handle.',
  },
  {
    icon: Route,
    title: 'Implementation strategy',
    text: 'Calendar and CRM integrations, call routing and hand-off rules, and a go-live plan measured in days.',
  },
  {
    icon: BarChart3,
    title: 'ROI projections',
    text: 'Recovered missed calls, staff hours saved and cost per call, worked out from your own numbers.',
  },
];

const card = 'rounded-2xl border border-navy-700 bg-navy-900/70';

/**
 * The book-demo page (spec §2 "Book-demo page"): what the 30-minute personalised demo covers,
 * who to talk to, a testimonial, the same three-step booking flow as the modal (inline here),
 * and links for visitors not ready to book.
 */
export default function BookDemoPage() {
  const flow = useBookingFlow({ source: 'book_demo_page' });

  return (
    <div className="pt-24 pb-20 sm:pt-28">
      <PageMeta
        title="Book a Demo"
        description="Book a 30-minute personalised demo of Parley's AI voice agents: a live call, an analysis of your use case, an implementation strategy and ROI projections."
        path="/book-demo"
      />
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <header>
          <Link
            to="/"
            className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-slate-300 transition hover:text-white"
          >
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
            Back to Home
          </Link>
          <div className="mt-8 max-w-3xl">
            <p className="text-sm font-semibold tracking-wider text-brand uppercase">Book a Demo</p>
            <h1 className="mt-2 text-4xl font-bold tracking-tight text-white sm:text-5xl">
              See your AI voice agent in action
            </h1>
            <p className="mt-5 text-lg text-slate-300">
              In a 30-minute personalised demo, one of our voice AI specialists shows you a live agent
              handling calls like yours, maps it to your workflows and walks you through what it would save
              you. No slides, no pressure.
            </p>
            <ul className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-200">
              <li className="inline-flex items-center gap-2">
                <Clock className="h-4 w-4 text-brand" aria-hidden="true" />
                30 minutes, one-on-one
              </li>
              <li className="inline-flex items-center gap-2">
                <Globe2 className="h-4 w-4 text-brand" aria-hidden="true" />
                Online, at a time that suits you
              </li>
              <li className="inline-flex items-center gap-2">
                <CalendarDays className="h-4 w-4 text-brand" aria-hidden="true" />
                Confirmation and calendar invite by email
              </li>
            </ul>
            {/* On narrow screens the form comes after the details; this jumps straight to it. */}
            <a
              href="#schedule"
              className="mt-8 inline-flex items-center gap-2 rounded-xl bg-brand px-5 py-3 text-sm font-semibold text-navy-950 transition hover:bg-brand-strong lg:hidden"
            >
              <CalendarDays className="h-4 w-4" aria-hidden="true" />
              Choose a Time
            </a>
          </div>
        </header>

        <div className="mt-12 grid gap-8 lg:grid-cols-12">
          <div className="space-y-8 lg:col-span-5">
            <section aria-labelledby="experience-title" className={`${card} p-6`}>
              <h2 id="experience-title" className="text-xl font-semibold text-white">
                What You'll Experience
              </h2>
              <ul className="mt-5 space-y-5">
                {EXPERIENCE.map(({ icon: Icon, title, text }) => (
                  <li key={title} className="flex gap-4">
                    <span
                      className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-cyan-400/15 text-brand"
                      aria-hidden="true"
                    >
                      <Icon className="h-5 w-5" />
                    </span>
                    <div>
                      <h3 className="font-semibold text-white">{title}</h3>
                      <p className="mt-1 text-sm text-slate-300">{text}</p>
                    </div>
                  </li>
                ))}
              </ul>
            </section>

            <section aria-labelledby="expert-title" className={`${card} p-6`}>
              <h2 id="expert-title" className="text-xl font-semibold text-white">
                Talk to a Demo Expert
              </h2>
              <p className="mt-2 text-sm text-slate-300">
                Rather speak to someone first? Our demo team is here {SALES_HOURS}.
              </p>
              <ul className="mt-5 space-y-3 text-sm">
                <li className="flex items-center gap-3">
                  <Phone className="h-4 w-4 shrink-0 text-brand" aria-hidden="true" />
                  <span className="sr-only">Phone: </span>
                  <a href={SALES_PHONE_HREF} className="text-slate-100 underline-offset-4 hover:underline">
                    {SALES_PHONE}
                  </a>
                </li>
                <li className="flex items-center gap-3">
                  <Mail className="h-4 w-4 shrink-0 text-brand" aria-hidden="true" />
                  <span className="sr-only">Email: </span>
                  <a
                    href={`mailto:${SALES_EMAIL}`}
                    className="text-slate-100 underline-offset-4 hover:underline"
                  >
                    {SALES_EMAIL}
                  </a>
                </li>
                <li className="flex items-center gap-3 text-slate-100">
                  <MapPin className="h-4 w-4 shrink-0 text-brand" aria-hidden="true" />
                  <span className="sr-only">Location: </span>
                  {COMPANY_LOCATION}
                </li>
              </ul>
            </section>

            <figure className={`${card} p-6`}>
              <div className="flex items-center justify-between">
                <Quote className="h-7 w-7 text-brand/70" aria-hidden="true" />
                <p className="flex gap-0.5" role="img" aria-label="Rated 5 out of 5">
                  {[1, 2, 3, 4, 5].map((n) => (
                    <Star key={n} className="h-4 w-4 fill-amber-300 text-amber-300" aria-hidden="true" />
                  ))}
                </p>
              </div>
              <blockquote className="mt-4 text-slate-200">
                <p>
                  “The demo used our own after-hours call scenarios. Within half an hour we could see exactly
                  where the agent would pay for itself, and we were live two weeks later.”
                </p>
              </blockquote>
              <figcaption className="mt-5 border-t border-navy-700 pt-4 text-sm">
                <span className="block font-semibold text-white">Director of Patient Access</span>
                <span className="block text-slate-300">Regional healthcare network · Healthcare</span>
              </figcaption>
            </figure>
          </div>

          <section
            id="schedule"
            aria-labelledby="schedule-title"
            data-testid="book-demo-form"
            className={`${card} scroll-mt-20 self-start overflow-hidden lg:col-span-7`}
          >
            <BookingFlowView
              flow={flow}
              headerClassName="border-b border-navy-700 px-5 pt-5 pb-4 sm:px-6"
              bodyClassName="px-5 py-5 focus:outline-none sm:px-6"
              header={
                <>
                  <h2 id="schedule-title" className="text-xl font-semibold text-white">
                    Schedule Your Demo
                  </h2>
                  <p className="mt-1 text-sm text-slate-300">
                    Pick a date and time for your 30-minute personalised demo.{' '}
                    <span className="font-medium text-slate-100">All times shown in Eastern Time</span>
                    <span aria-hidden="true">.</span>
                  </p>
                </>
              }
            />
          </section>
        </div>

        <section
          aria-labelledby="questions-title"
          className={`${card} mt-12 flex flex-col items-start gap-6 p-6 sm:p-8 lg:flex-row lg:items-center lg:justify-between`}
        >
          <div className="max-w-2xl">
            <h2 id="questions-title" className="text-xl font-semibold text-white">
              Questions Before Booking?
            </h2>
            <p className="mt-2 text-sm text-slate-300">
              Send us a message and we'll get back to you within 2 hours, or see how teams in healthcare, real
              estate, legal, finance and hospitality use Parley.
            </p>
          </div>
          <div className="flex w-full shrink-0 flex-col gap-3 sm:w-auto sm:flex-row">
            <SectionLink
              id="contact"
              trackLabel="book_demo_contact"
              className="inline-flex items-center justify-center gap-2 rounded-xl bg-brand px-5 py-3 text-sm font-semibold whitespace-nowrap text-navy-950 transition hover:bg-brand-strong"
            >
              <MessageSquare className="h-4 w-4" aria-hidden="true" />
              Send a Message
            </SectionLink>
            <Link
              to="/use-cases"
              className="inline-flex items-center justify-center gap-2 rounded-xl border border-navy-600 px-5 py-3 text-sm font-semibold whitespace-nowrap text-slate-100 transition hover:border-brand hover:text-white"
            >
              View Use Cases
            </Link>
          </div>
        </section>
      </div>
    </div>
  );
}
