import clsx from 'clsx';
import type { ReactNode } from 'react';

/**
 * A home section: a landmark named by its heading, with room above for the fixed nav bar
 * when scrolled to, and focusable from script so an in-page link moves keyboard focus here.
 */
export function HomeSection({
  id,
  eyebrow,
  title,
  intro,
  children,
  className,
}: {
  id: string;
  eyebrow: string;
  title: ReactNode;
  intro?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const headingId = `${id}-title`;
  return (
    <section
      id={id}
      tabIndex={-1}
      aria-labelledby={headingId}
      className={clsx('scroll-mt-16 py-20 focus:outline-none sm:py-24', className)}
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <header className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wider text-brand uppercase">{eyebrow}</p>
          <h2 id={headingId} className="mt-2 text-3xl font-bold tracking-tight text-white sm:text-4xl">
            {title}
          </h2>
          {intro ? <p className="mt-4 text-lg text-slate-300">{intro}</p> : null}
        </header>
        <div className="mt-12 sm:mt-16">{children}</div>
      </div>
    </section>
  );
}

export const cardClass = 'rounded-2xl border border-navy-700 bg-navy-900/70 p-6';
