import { FileWarning } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageMeta } from '../../components/seo/page-meta.tsx';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

/**
 * The frame shared by the legal pages: the counsel-review notice, the title and dates, a table
 * of contents and numbered sections with anchors, and links to the sibling documents.
 */
export function LegalLayout({
  title,
  description,
  path,
  effective,
  intro,
  sections,
}: {
  title: string;
  description: string;
  path: string;
  /** Effective date as shown, e.g. '19 December 2024'. */
  effective: string;
  intro: ReactNode;
  sections: LegalSection[];
}) {
  return (
    <article aria-labelledby="legal-title" className="pt-28 pb-20 sm:pt-32">
      <PageMeta title={title} description={description} path={path} />
      <div className="mx-auto max-w-3xl px-4 sm:px-6">
        <aside
          role="note"
          aria-label="Template notice"
          className="mb-8 flex gap-3 rounded-xl border border-amber-300/50 bg-amber-300/10 p-4 text-sm text-amber-50"
        >
          <FileWarning className="mt-0.5 h-5 w-5 shrink-0 text-amber-300" aria-hidden="true" />
          <p>
            <strong className="font-semibold">Template — to be reviewed by counsel.</strong> This document is
            a working draft written for Parley's product. It is not legal advice and must be reviewed by
            qualified counsel before it is relied on.
          </p>
        </aside>

        <header>
          <p className="text-sm font-semibold tracking-wider text-brand uppercase">Legal</p>
          <h1 id="legal-title" className="mt-2 text-4xl font-bold tracking-tight text-white sm:text-5xl">
            {title}
          </h1>
          <p className="mt-4 text-sm text-slate-300">Effective date: {effective}</p>
        </header>

        <div className="mt-8 space-y-4 text-base leading-relaxed text-slate-200">{intro}</div>

        <nav
          aria-labelledby="toc-title"
          className="mt-10 rounded-xl border border-navy-700 bg-navy-900/70 p-5"
        >
          <h2 id="toc-title" className="text-sm font-semibold text-white">
            Contents
          </h2>
          <ol className="mt-3 grid gap-1.5 text-sm sm:grid-cols-2">
            {sections.map((s, i) => (
              <li key={s.id}>
                <a href={`#${s.id}`} className="text-slate-300 hover:text-white">
                  {i + 1}. {s.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>

        <div className="mt-10 space-y-10">
          {sections.map((s, i) => (
            <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`} className="scroll-mt-20">
              <h2 id={`${s.id}-title`} className="text-2xl font-semibold text-white">
                {i + 1}. {s.title}
              </h2>
              <div className="mt-4 space-y-4 leading-relaxed text-slate-200 [&_a]:text-brand [&_a]:underline [&_h3]:mt-6 [&_h3]:font-semibold [&_h3]:text-white [&_li]:mt-2 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6">
                {s.body}
              </div>
            </section>
          ))}
        </div>

        <footer className="mt-16 border-t border-navy-700 pt-6 text-sm text-slate-300">
          <p>Related documents:</p>
          <ul className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
            {[
              { to: '/privacy-policy', label: 'Privacy Policy' },
              { to: '/terms-conditions', label: 'Terms & Conditions' },
              { to: '/app-privacy', label: 'App Privacy' },
            ]
              .filter((d) => d.to !== path)
              .map((d) => (
                <li key={d.to}>
                  <Link to={d.to} className="text-brand underline hover:text-white">
                    {d.label}
                  </Link>
                </li>
              ))}
          </ul>
        </footer>
      </div>
    </article>
  );
}
