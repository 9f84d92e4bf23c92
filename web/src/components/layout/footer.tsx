import { ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { SALES_EMAIL, SALES_PHONE, SALES_PHONE_HREF } from '../contact/company.ts';
import { Logo } from './logo.tsx';
import { RESOURCES } from './resources-menu.tsx';
import { HOME_SECTIONS, SectionLink } from './section-link.tsx';

export const COMPLIANCE_BADGES = ['SOC 2 Type II', 'GDPR', 'ISO 27001'] as const;

const LEGAL_LINKS = [
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/terms-conditions', label: 'Terms & Conditions' },
  { to: '/app-privacy', label: 'App Privacy' },
] as const;

const headingClass = 'text-sm font-semibold text-white';
const linkClass = 'text-sm text-slate-300 transition hover:text-white';

/** Footer of every public page: logo, section links, Blog, Resources, legal links, compliance, copyright. */
export function Footer() {
  return (
    <footer className="border-t border-navy-800 bg-navy-950">
      <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <div className="grid gap-10 sm:grid-cols-2 lg:grid-cols-5">
          <div className="lg:col-span-2">
            <Link to="/" aria-label="Parley home" className="inline-block rounded-md">
              <Logo />
            </Link>
            <p className="mt-4 max-w-xs text-sm text-slate-300">
              AI voice agents that answer every call, qualify callers and book appointments, around the clock
              and in 50+ languages.
            </p>
            <p className="mt-4 text-sm text-slate-300">
              <a href={SALES_PHONE_HREF} className="hover:text-white">
                {SALES_PHONE}
              </a>
              <span aria-hidden="true"> · </span>
              <a href={`mailto:${SALES_EMAIL}`} className="hover:text-white">
                {SALES_EMAIL}
              </a>
            </p>
          </div>

          <nav aria-label="Product">
            <h2 className={headingClass}>Product</h2>
            <ul className="mt-4 space-y-3">
              {HOME_SECTIONS.map((s) => (
                <li key={s.id}>
                  <SectionLink id={s.id} className={linkClass} trackLabel={`footer_${s.id}`}>
                    {s.label}
                  </SectionLink>
                </li>
              ))}
            </ul>
          </nav>

          <nav aria-label="Resources">
            <h2 className={headingClass}>Resources</h2>
            <ul className="mt-4 space-y-3">
              <li>
                <Link to="/blog" className={linkClass}>
                  Blog
                </Link>
              </li>
              {RESOURCES.map((r) => (
                <li key={r.to}>
                  <Link to={r.to} className={linkClass}>
                    {r.label}
                  </Link>
                </li>
              ))}
              <li>
                <Link to="/book-demo" className={linkClass}>
                  Book a Demo
                </Link>
              </li>
            </ul>
          </nav>

          <nav aria-label="Legal">
            <h2 className={headingClass}>Legal</h2>
            <ul className="mt-4 space-y-3">
              {LEGAL_LINKS.map((l) => (
                <li key={l.to}>
                  <Link to={l.to} className={linkClass}>
                    {l.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>

        <div className="mt-12 flex flex-col gap-6 border-t border-navy-800 pt-8 md:flex-row md:items-center md:justify-between">
          <ul aria-label="Compliance" className="flex flex-wrap gap-2">
            {COMPLIANCE_BADGES.map((badge) => (
              <li
                key={badge}
                className="inline-flex items-center gap-1.5 rounded-full border border-navy-600 bg-navy-900 px-3 py-1 text-xs font-medium text-slate-200"
              >
                <ShieldCheck className="h-3.5 w-3.5 text-brand" aria-hidden="true" />
                {badge}
              </li>
            ))}
          </ul>
          <p className="text-sm text-slate-300">© {new Date().getFullYear()} Parley. All rights reserved.</p>
        </div>
      </div>
    </footer>
  );
}
