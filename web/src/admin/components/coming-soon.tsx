import { Sparkles } from 'lucide-react';
import { cardClass, PageHeader } from './ui.tsx';

/** Placeholder of a back-office screen that a later release brings. */
export function ComingSoon({ title, description }: { title: string; description: string }) {
  return (
    <section aria-labelledby="coming-soon-title">
      <title>{`${title} · Parley Admin`}</title>
      <PageHeader title={title} description={description} />
      <div className={`${cardClass} flex flex-col items-center px-6 py-14 text-center`}>
        <Sparkles className="h-10 w-10 text-brand" aria-hidden="true" />
        <p id="coming-soon-title" className="mt-3 text-lg font-semibold text-white">
          Coming soon
        </p>
        <p className="mt-1 max-w-md text-sm text-slate-400">
          This screen arrives with a later release; everything else in the menu is ready to use.
        </p>
      </div>
    </section>
  );
}
