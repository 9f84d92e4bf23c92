import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

/** Last-resort boundary: a failed lazy chunk or a render error shows this, not a blank page. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <main className="flex min-h-screen items-center justify-center bg-navy-950 px-4">
      <div className="max-w-md rounded-2xl border border-navy-700 bg-navy-900 p-8 text-center">
        <h1 className="text-xl font-semibold text-white">Something went wrong</h1>
        <p className="mt-2 text-sm text-slate-400">{detail}</p>
        <div className="mt-6 flex justify-center gap-3">
          <button
            type="button"
            onClick={() => window.location.reload()}
            className="rounded-lg bg-brand px-4 py-2 text-sm font-semibold text-navy-950 hover:bg-brand-strong"
          >
            Reload
          </button>
          <Link to="/" className="rounded-lg border border-navy-600 px-4 py-2 text-sm text-slate-200">
            Home
          </Link>
        </div>
      </div>
    </main>
  );
}
