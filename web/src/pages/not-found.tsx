import { AlertCircle } from 'lucide-react';
import { Link } from 'react-router';
import { PageMeta } from '../components/seo/page-meta.tsx';

/** Any unknown path (spec §2): 'Page Not Found'. The gateway answers such paths with the SPA. */
export default function NotFoundPage() {
  return (
    <section
      aria-labelledby="not-found-title"
      className="flex min-h-[70vh] items-center justify-center px-4 pt-24 pb-16"
    >
      <PageMeta
        title="Page Not Found"
        description="The page you were looking for does not exist on the Parley site."
        path={window.location.pathname}
      />
      {/* Search engines must not index the ever-changing set of wrong addresses. */}
      <meta name="robots" content="noindex" />
      <div className="w-full max-w-md rounded-2xl border border-navy-700 bg-navy-900 p-8 shadow-xl">
        <div className="mb-4 flex items-center gap-3">
          <AlertCircle className="h-8 w-8 text-red-400" aria-hidden="true" />
          <h1 id="not-found-title" className="text-2xl font-bold text-white">
            Page Not Found
          </h1>
        </div>
        <p className="text-sm text-slate-300">Did you forget to add the page to the router?</p>
        <Link
          to="/"
          className="mt-6 inline-flex rounded-lg border border-navy-600 px-4 py-2 text-sm font-medium text-slate-200 transition hover:border-brand hover:text-white"
        >
          Back to Home
        </Link>
      </div>
    </section>
  );
}
