import { CalendarCheck, Clock, Mail, Phone } from 'lucide-react';
import { SALES_EMAIL, SALES_HOURS, SALES_PHONE, SALES_PHONE_HREF } from '../../components/contact/company.ts';
import { ContactForm } from '../../components/contact/contact-form.tsx';
import { openBookingModal } from '../../lib/events.ts';
import { HomeSection } from './section.tsx';

/** Contact (#contact): the demo-request form next to the sales team's phone, email and hours. */
export function Contact() {
  return (
    <HomeSection
      id="contact"
      eyebrow="Contact"
      title="Request a demo"
      intro="Tell us about your business and we'll show you an agent built around your calls. We reply within 2 hours during business hours."
    >
      <div className="grid gap-8 lg:grid-cols-5">
        <aside aria-labelledby="sales-title" className="space-y-6 lg:col-span-2">
          <div className="rounded-2xl border border-navy-700 bg-navy-900/70 p-6">
            <h3 id="sales-title" className="text-lg font-semibold text-white">
              Talk to sales
            </h3>
            <ul className="mt-4 space-y-4 text-sm">
              <li className="flex items-start gap-3">
                <Phone className="mt-0.5 h-5 w-5 shrink-0 text-brand" aria-hidden="true" />
                <span>
                  <span className="block text-slate-300">Phone</span>
                  <a href={SALES_PHONE_HREF} className="font-medium text-white hover:text-brand">
                    {SALES_PHONE}
                  </a>
                </span>
              </li>
              <li className="flex items-start gap-3">
                <Mail className="mt-0.5 h-5 w-5 shrink-0 text-brand" aria-hidden="true" />
                <span>
                  <span className="block text-slate-300">Email</span>
                  <a href={`mailto:${SALES_EMAIL}`} className="font-medium text-white hover:text-brand">
                    {SALES_EMAIL}
                  </a>
                </span>
              </li>
              <li className="flex items-start gap-3">
                <Clock className="mt-0.5 h-5 w-5 shrink-0 text-brand" aria-hidden="true" />
                <span>
                  <span className="block text-slate-300">Hours</span>
                  <span className="font-medium text-white">{SALES_HOURS}</span>
                </span>
              </li>
            </ul>
          </div>
          <div className="rounded-2xl border border-cyan-400/30 bg-cyan-400/10 p-6">
            <p className="flex items-start gap-3 text-sm text-cyan-50">
              <CalendarCheck className="mt-0.5 h-5 w-5 shrink-0 text-brand" aria-hidden="true" />
              Prefer to pick a time yourself? Book a 15-minute demo straight into our calendar.
            </p>
            <button
              type="button"
              onClick={openBookingModal}
              className="mt-4 w-full rounded-lg border border-brand/60 px-4 py-2 text-sm font-semibold text-white transition hover:bg-brand hover:text-navy-950"
            >
              Pick a Time
            </button>
          </div>
        </aside>
        <div className="rounded-2xl border border-navy-700 bg-navy-900 p-6 sm:p-8 lg:col-span-3">
          <ContactForm idPrefix="home-contact" source="home_contact" />
        </div>
      </div>
    </HomeSection>
  );
}
