import type { LoginResponse, Me } from '@parley/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Loader2, LogIn, ShieldQuestion } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { apiErrorOf } from '../../lib/api.ts';
import NotFoundPage from '../../pages/not-found.tsx';
import { ROLE_LABELS } from '../components/admin-frame.tsx';
import { AdminForm } from '../components/form-feedback.tsx';
import { PasswordInput } from '../components/password-input.tsx';
import {
  FieldError,
  FormAlert,
  inputClass,
  labelClass,
  primaryButton,
  secondaryButton,
} from '../components/ui.tsx';
import { login, ME_PATH, messageOr, resetSessionCache } from '../lib/api.ts';
import { AuthCard } from './auth-card.tsx';
import { validateLogin } from './login-form.tsx';

/** Developer test login: redirect delay after a successful sign-in (spec §9). */
export const TEST_LOGIN_REDIRECT_MS = 2000;

interface LogLine {
  at: string;
  text: string;
}

/**
 * The two developer test login screens (/admin/simple, /admin/test; spec §2): the same
 * login call as the real form, a session check, the admin's name and role on success and a
 * redirect to /admin after 2 seconds. No credential is prefilled. The /admin/test variant
 * also keeps a log of the raw answers.
 */
function TestLogin({ variant }: { variant: 'simple' | 'test' }) {
  const id = useId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState<'login' | 'session' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [problems, setProblems] = useState<ReturnType<typeof validateLogin>>({});
  const [who, setWho] = useState<{ name: string; role: string; signedIn: boolean } | null>(null);
  const [log, setLog] = useState<LogLine[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const note = (text: string) =>
    setLog((l) => [{ at: new Date().toLocaleTimeString('en-US'), text }, ...l].slice(0, 20));

  const submit = () => {
    if (busy) return;
    const found = validateLogin(email, password);
    setProblems(found);
    if (found.email || found.password) return found;
    void signIn();
  };

  const signIn = async () => {
    setBusy('login');
    setError(null);
    setWho(null);
    try {
      const res: LoginResponse = await login(email.trim(), password);
      note(`POST /api/admin/login → 200 ${JSON.stringify(res)}`);
      setWho({
        name: `${res.admin.firstName} ${res.admin.lastName}`,
        role: ROLE_LABELS[res.admin.role],
        signedIn: true,
      });
      await resetSessionCache(queryClient);
      timer.current = setTimeout(() => void navigate('/admin'), TEST_LOGIN_REDIRECT_MS);
    } catch (err) {
      note(`POST /api/admin/login → ${err instanceof Error ? err.message : String(err)}`);
      setError(messageOr(err, 'Login failed'));
    } finally {
      setBusy(null);
    }
  };

  const checkSession = async () => {
    setBusy('session');
    setError(null);
    try {
      const res = await fetch(ME_PATH, { credentials: 'include' });
      if (res.status === 401) {
        note('GET /api/admin/me → 401 (no session)');
        setWho(null);
        setError('No active session');
        return;
      }
      if (!res.ok) throw await apiErrorOf(res);
      const me = (await res.json()) as Me;
      note(`GET /api/admin/me → 200 ${JSON.stringify(me)}`);
      setWho({ name: `${me.firstName} ${me.lastName}`, role: ROLE_LABELS[me.role], signedIn: false });
    } catch (err) {
      note(`GET /api/admin/me → ${err instanceof Error ? err.message : String(err)}`);
      setError(messageOr(err, 'Session check failed'));
    } finally {
      setBusy(null);
    }
  };

  const title = variant === 'simple' ? 'Simple Admin Login' : 'Admin Login Test';
  return (
    <AuthCard title={title} description="Developer tool: signs in with the regular admin login call.">
      <title>{`${title} · Parley`}</title>
      <AdminForm onSubmit={submit} className="space-y-4" aria-label={title}>
        <FormAlert message={error} />
        {who ? (
          <div
            role="status"
            className="flex items-start gap-2 rounded-lg border border-emerald-400/40 bg-emerald-400/10 px-3 py-2 text-sm text-emerald-100"
          >
            <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            <span>
              {who.signedIn ? 'Signed in as' : 'Current session:'} <strong>{who.name}</strong> ({who.role})
              {who.signedIn ? '. Redirecting to /admin in 2 seconds...' : ''}
            </span>
          </div>
        ) : null}
        <div>
          <label htmlFor={`${id}-email`} className={labelClass}>
            Email
          </label>
          <input
            id={`${id}-email`}
            type="email"
            autoComplete="username"
            className={inputClass}
            value={email}
            aria-invalid={problems.email ? true : undefined}
            aria-describedby={problems.email ? `${id}-email-error` : undefined}
            onChange={(e) => {
              setEmail(e.target.value);
              setProblems((p) => ({ ...p, email: undefined }));
            }}
          />
          <FieldError id={`${id}-email-error`} message={problems.email} />
        </div>
        <div>
          <label htmlFor={`${id}-password`} className={labelClass}>
            Password
          </label>
          <PasswordInput
            id={`${id}-password`}
            autoComplete="current-password"
            value={password}
            aria-invalid={problems.password ? true : undefined}
            aria-describedby={problems.password ? `${id}-password-error` : undefined}
            onChange={(e) => {
              setPassword(e.target.value);
              setProblems((p) => ({ ...p, password: undefined }));
            }}
          />
          <FieldError id={`${id}-password-error`} message={problems.password} />
        </div>
        <div className="flex flex-col gap-2 sm:flex-row">
          <button
            type="submit"
            className={`${primaryButton} flex-1`}
            disabled={busy !== null}
            aria-busy={busy === 'login'}
          >
            {busy === 'login' ? (
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
            ) : (
              <LogIn className="h-4 w-4" aria-hidden="true" />
            )}
            Test Login
          </button>
          <button
            type="button"
            className={`${secondaryButton} flex-1`}
            onClick={() => void checkSession()}
            disabled={busy !== null}
            aria-busy={busy === 'session'}
          >
            <ShieldQuestion className="h-4 w-4" aria-hidden="true" />
            Check Session
          </button>
        </div>
      </AdminForm>
      {variant === 'test' && log.length > 0 ? (
        <section aria-label="Response log" className="mt-6">
          <h2 className="mb-2 text-sm font-semibold text-slate-300">Response log</h2>
          <ol className="max-h-60 space-y-1 overflow-y-auto rounded-lg border border-navy-700 bg-navy-950 p-3 font-mono text-xs text-slate-300">
            {log.map((l, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: an append-only log
              <li key={i} className="break-all">
                <span className="text-slate-500">{l.at}</span> {l.text}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </AuthCard>
  );
}

/**
 * Off in production (ADMIN_TEST_LOGINS, docs/adr/0033-developer-test-logins-off-in-production.md): the
 * gateway then answers these
 * paths 404 and marks the page, and the app shows its 404 page here too.
 */
function testLoginsOff(): boolean {
  return (
    typeof document !== 'undefined' &&
    document.querySelector('meta[name="parley-test-logins"]')?.getAttribute('content') === 'off'
  );
}

export function SimpleLoginPage() {
  return testLoginsOff() ? <NotFoundPage /> : <TestLogin variant="simple" />;
}

export function TestLoginPage() {
  return testLoginsOff() ? <NotFoundPage /> : <TestLogin variant="test" />;
}
