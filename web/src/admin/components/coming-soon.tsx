import { Sparkles } from 'lucide-react';
import { useAdmin } from '../lib/session.tsx';
import { entriesFor } from './nav-entries.ts';
import { cardClass, PageHeader } from './ui.tsx';

/** Placeholder of a back-office screen that is not built yet (today: none but Newsletters). */
export function ComingSoon({ title, description }: { title: string; description: string }) {
  const admin = useAdmin();
  const ready = entriesFor(admin.role)
    .map((e) => e.label)
    .filter((label) => label !== title);
  const list = new Intl.ListFormat('en-US', { style: 'long', type: 'conjunction' }).format(ready);
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
          This screen is being built and is not available yet. The rest of the back office is ready to use:{' '}
          {list}.
        </p>
      </div>
    </section>
  );
}
