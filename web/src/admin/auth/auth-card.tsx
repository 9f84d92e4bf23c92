import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../components/layout/logo.tsx';

/** The centred card of the sign-in screens (login, invitation, password change, test logins). */
export function AuthCard({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <main
      id="main"
      className="flex min-h-screen items-center justify-center bg-[radial-gradient(ellipse_at_top,_rgba(34,211,238,0.12),_transparent_60%)] bg-navy-950 px-4 py-12"
    >
      <div className="w-full max-w-md">
        <div className="mb-6 flex justify-center">
          <Link to="/" aria-label="Parley home" className="rounded-md">
            <Logo />
          </Link>
        </div>
        <section
          aria-labelledby="auth-title"
          className="rounded-2xl border border-navy-700 bg-navy-900 p-6 shadow-2xl shadow-black/40 sm:p-8"
        >
          <h1 id="auth-title" className="text-2xl font-bold tracking-tight text-white">
            {title}
          </h1>
          {description ? <p className="mt-1 text-sm text-slate-400">{description}</p> : null}
          <div className="mt-6">{children}</div>
        </section>
        {footer ? <div className="mt-4 text-center text-sm text-slate-400">{footer}</div> : null}
      </div>
    </main>
  );
}
