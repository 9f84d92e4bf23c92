import type { InvitationLookupResponse, LoginResponse } from '@parley/contracts';
import { MIN_PASSWORD_LENGTH } from '@parley/contracts/identity';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AdminForm } from '../components/form-feedback.tsx';
import { PasswordInput } from '../components/password-input.tsx';
import { FieldError, FormAlert, LoadingState, labelClass, primaryButton } from '../components/ui.tsx';
import { adminRequest, afterLoginPath, messageOr, resetSessionCache } from '../lib/api.ts';
import { AuthCard } from './auth-card.tsx';

/**
 * The invitation link's page: greets the invitee (lookup), lets them choose a password
 * (accept), which also signs them in. A dead or expired link says so, with a way to sign in.
 */
export function AcceptInvitation({ token }: { token: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});

  const lookup = useQuery({
    queryKey: ['/api/admin/invitations/lookup', token],
    queryFn: () => adminRequest<InvitationLookupResponse>('POST', '/api/admin/invitations/lookup', { token }),
    gcTime: 0,
  });

  const accept = useMutation({
    mutationFn: () =>
      adminRequest<LoginResponse>('POST', '/api/admin/invitations/accept', { token, password }),
    onSuccess: async (res) => {
      await resetSessionCache(queryClient);
      await navigate(afterLoginPath(res), { replace: true });
    },
  });

  const submit = () => {
    if (accept.isPending) return;
    const found: typeof errors = {};
    if (password.length < MIN_PASSWORD_LENGTH)
      found.password = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
    else if (confirm !== password) found.confirm = 'Passwords do not match';
    setErrors(found);
    if (found.password || found.confirm) return found;
    accept.mutate();
  };

  const signInLink = (
    <Link to="/admin/login" className="text-brand underline-offset-2 hover:underline">
      Go to the login page
    </Link>
  );

  if (lookup.isPending) {
    return (
      <AuthCard title="Accept Invitation">
        <title>Accept Invitation · Parley</title>
        <LoadingState label="Checking your invitation..." />
      </AuthCard>
    );
  }
  if (lookup.isError) {
    return (
      <AuthCard title="Accept Invitation" footer={signInLink}>
        <title>Accept Invitation · Parley</title>
        <FormAlert message={messageOr(lookup.error, 'This invitation link is invalid or has expired')} />
      </AuthCard>
    );
  }

  const invitee = lookup.data;
  const pending = accept.isPending || accept.isSuccess;
  return (
    <AuthCard
      title={`Welcome, ${invitee.firstName}`}
      description={
        <>
          Choose a password for <span className="text-slate-200">{invitee.email}</span> to activate your admin
          account.
        </>
      }
      footer={signInLink}
    >
      <title>Accept Invitation · Parley</title>
      <AdminForm onSubmit={submit} className="space-y-4" aria-label="Choose your password">
        <FormAlert
          message={accept.isError ? messageOr(accept.error, 'Failed to accept the invitation') : null}
        />
        <input type="email" name="username" autoComplete="username" value={invitee.email} readOnly hidden />
        <div>
          <label htmlFor={`${id}-password`} className={labelClass}>
            New password
          </label>
          <PasswordInput
            id={`${id}-password`}
            autoComplete="new-password"
            maxLength={256}
            value={password}
            aria-invalid={errors.password ? true : undefined}
            aria-describedby={`${id}-password-hint${errors.password ? ` ${id}-password-error` : ''}`}
            onChange={(e) => setPassword(e.target.value)}
          />
          <p id={`${id}-password-hint`} className="mt-1 text-xs text-slate-500">
            At least {MIN_PASSWORD_LENGTH} characters.
          </p>
          <FieldError id={`${id}-password-error`} message={errors.password} />
        </div>
        <div>
          <label htmlFor={`${id}-confirm`} className={labelClass}>
            Confirm new password
          </label>
          <PasswordInput
            id={`${id}-confirm`}
            autoComplete="new-password"
            maxLength={256}
            value={confirm}
            aria-invalid={errors.confirm ? true : undefined}
            aria-describedby={errors.confirm ? `${id}-confirm-error` : undefined}
            onChange={(e) => setConfirm(e.target.value)}
          />
          <FieldError id={`${id}-confirm-error`} message={errors.confirm} />
        </div>
        <button
          type="submit"
          disabled={pending}
          aria-busy={pending}
          className={`${primaryButton} w-full py-2.5`}
        >
          {pending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : null}
          {pending ? 'Activating...' : 'Set Password and Sign In'}
        </button>
      </AdminForm>
    </AuthCard>
  );
}
