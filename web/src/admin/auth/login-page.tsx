import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { afterLoginPath, meQuery, resetSessionCache } from '../lib/api.ts';
import { AcceptInvitation } from './accept-invitation.tsx';
import { AuthCard } from './auth-card.tsx';
import { LoginForm } from './login-form.tsx';

const HELP_LINE = 'Need help signing in? Contact your Parley administrator.';

/**
 * The admin login screen. Success leads to /admin/change-password when the admin must
 * change it, otherwise to /admin (spec §4). Also the landing page of invitation links
 * (`/admin/login?invite=<token>`): the invitee chooses a password there.
 */
export function LoginScreen() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <AuthCard title="Admin Login" description="Sign in to the Parley back office." footer={HELP_LINE}>
      <title>Admin Login · Parley</title>
      <LoginForm
        onSuccess={async (res) => {
          await resetSessionCache(queryClient);
          await navigate(afterLoginPath(res), { replace: true });
        }}
      />
    </AuthCard>
  );
}

export default function LoginPage() {
  const [params] = useSearchParams();
  const invite = params.get('invite');
  if (invite) return <AcceptInvitation token={invite} />;
  return <SignedInGoesToConsole />;
}

/**
 * An admin who is already signed in has nothing to do here: on to the console (which sends
 * one who must change the password on to that screen). The form shows while the check runs.
 */
function SignedInGoesToConsole() {
  const me = useQuery(meQuery);
  // Decided by the first answer alone: once the admin signs in on this form, the form chooses
  // where to go (the change-password screen, when the password must change).
  const [signedInAlready, setSignedInAlready] = useState<boolean | null>(null);
  useEffect(() => {
    if (signedInAlready === null && !me.isPending) setSignedInAlready(Boolean(me.data));
  }, [me.isPending, me.data, signedInAlready]);
  if (signedInAlready) return <Navigate to="/admin" replace />;
  return <LoginScreen />;
}
