import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { AcceptInvitation } from '../components/accept-invitation.tsx';
import { AuthCard } from '../components/auth-card.tsx';
import { LoginForm } from '../components/login-form.tsx';
import { afterLoginPath, resetSessionCache } from '../lib/api.ts';

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
  return <LoginScreen />;
}
