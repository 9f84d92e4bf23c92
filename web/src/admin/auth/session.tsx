import type { Me } from '@parley/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { createContext, type ReactNode, useContext, useEffect, useRef } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { toast } from '../../components/toast/index.ts';
import { isPasswordChangeRequired, isUnauthorized, logout, ME_PATH, meQuery, messageOr } from '../lib/api.ts';

const AdminContext = createContext<Me | null>(null);

/** The signed-in admin; only inside an `AdminGuard`. */
export function useAdmin(): Me {
  const admin = useContext(AdminContext);
  if (!admin) throw new Error('useAdmin() outside an AdminGuard');
  return admin;
}

export function CheckingAuthentication() {
  return (
    <div className="flex min-h-screen items-center justify-center bg-navy-950 px-4">
      <p role="status" className="flex items-center gap-2 text-sm text-slate-300">
        <Loader2 className="h-5 w-5 animate-spin text-brand" aria-hidden="true" />
        Checking authentication...
      </p>
    </div>
  );
}

/**
 * The admin guard (spec §2, §4): while the current-admin check runs it shows 'Checking
 * authentication...'; with no admin (401) or an error it redirects to /admin/login, or
 * shows `signedOut` instead when given (the console at /admin shows the login form there).
 */
export function AdminGuard({ children, signedOut }: { children: ReactNode; signedOut?: ReactNode }) {
  const me = useQuery(meQuery);
  if (me.isPending) return <CheckingAuthentication />;
  if (me.isError || !me.data) {
    return signedOut !== undefined ? signedOut : <Navigate to="/admin/login" replace />;
  }
  return (
    <AdminContext.Provider value={me.data}>
      <SessionWatcher />
      {children}
    </AdminContext.Provider>
  );
}

/**
 * Watches every read and write of the admin screens: a 401 (session expired or ended
 * elsewhere) marks the admin signed out, which sends the guard to /admin/login; the
 * gateway's 403 'Please change your password to continue.' leads to the change-password screen.
 */
function SessionWatcher() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    const handle = (error: unknown) => {
      if (isUnauthorized(error)) queryClient.setQueryData([ME_PATH], null);
      else if (isPasswordChangeRequired(error)) navigate('/admin/change-password');
    };
    const offQueries = queryClient.getQueryCache().subscribe((e) => {
      if (e.type === 'updated' && e.action.type === 'error' && e.query.queryKey[0] !== ME_PATH)
        handle(e.action.error);
    });
    const offMutations = queryClient.getMutationCache().subscribe((e) => {
      if (e.type === 'updated' && e.action.type === 'error') handle(e.action.error);
    });
    return () => {
      offQueries();
      offMutations();
    };
  }, [queryClient, navigate]);
  return null;
}

/**
 * Sign-out (spec §2, §8): 'Logged out successfully' then, after `delayMs`, go to `to`;
 * a failure shows 'Logout failed' with the message. The cache of the session is dropped
 * once the admin screens are left, so the guard does not redirect to the login page first.
 */
export function useLogout({ to = '/', delayMs = 0 }: { to?: string; delayMs?: number } = {}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const mutation = useMutation({
    mutationFn: logout,
    onSuccess: () => {
      toast({ title: 'Logged out successfully' });
      timer.current = setTimeout(async () => {
        await navigate(to, { replace: true });
        // Only now: the guard is gone, so the dropped session cannot trigger its redirect.
        queryClient.removeQueries();
      }, delayMs);
    },
    onError: (err) => {
      toast({ variant: 'destructive', title: 'Logout failed', description: messageOr(err, 'Logout failed') });
    },
  });
  return {
    logout: () => mutation.mutate(),
    /** True from the click until the navigation (the call plus the delay). */
    pending: mutation.isPending || mutation.isSuccess,
  };
}
