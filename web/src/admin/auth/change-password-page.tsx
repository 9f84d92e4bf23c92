import { MIN_PASSWORD_LENGTH } from '@parley/contracts/identity';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Loader2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../../components/toast/index.ts';
import { AdminForm } from '../components/form-feedback.tsx';
import { PasswordInput } from '../components/password-input.tsx';
import { FieldError, FormAlert, labelClass, primaryButton } from '../components/ui.tsx';
import { adminRequest, ME_PATH, messageOr, notePasswordChanged } from '../lib/api.ts';
import { AuthCard } from './auth-card.tsx';
import { AdminGuard, useAdmin, useLogout } from './session.tsx';

interface Errors {
  current?: string;
  next?: string;
  confirm?: string;
}

/** Spec §5 "Password schema", plus the confirmation the form adds. */
export function validatePasswordChange(current: string, next: string, confirm: string): Errors {
  const errors: Errors = {};
  if (!current) errors.current = 'Current password is required';
  if (next.length < MIN_PASSWORD_LENGTH)
    errors.next = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  else if (next === current) errors.next = 'The new password must be different from the current password';
  if (!errors.next && confirm !== next) errors.confirm = 'Passwords do not match';
  return errors;
}

function ChangePasswordForm() {
  const admin = useAdmin();
  const id = useId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { logout, pending: loggingOut } = useLogout({ to: '/admin/login' });
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});

  const change = useMutation({
    mutationFn: () =>
      adminRequest<{ success: true }>('POST', '/api/admin/change-password', {
        currentPassword: current,
        newPassword: next,
      }),
    onSuccess: async () => {
      notePasswordChanged();
      toast({ title: 'Password changed', description: 'Your new password is now active.' });
      // Reads refused before the change (403) must be asked again.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== ME_PATH });
      await navigate('/admin', { replace: true });
    },
  });

  const submit = () => {
    if (change.isPending) return;
    const found = validatePasswordChange(current, next, confirm);
    setErrors(found);
    if (found.current || found.next || found.confirm) return found;
    change.mutate();
  };

  const field = (key: keyof Errors, label: string, value: string, set: (v: string) => void, auto: string) => (
    <div>
      <label htmlFor={`${id}-${key}`} className={labelClass}>
        {label}
      </label>
      <PasswordInput
        id={`${id}-${key}`}
        autoComplete={auto}
        maxLength={256}
        value={value}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] ? `${id}-${key}-error` : undefined}
        onChange={(e) => {
          set(e.target.value);
          if (errors[key]) setErrors((x) => ({ ...x, [key]: undefined }));
        }}
      />
      <FieldError id={`${id}-${key}-error`} message={errors[key]} />
    </div>
  );

  const pending = change.isPending || change.isSuccess;
  return (
    <AuthCard
      title="Change Password"
      description={
        <>
          Signed in as <span className="text-slate-200">{admin.email}</span>. For your security, choose a new
          password before continuing.
        </>
      }
      footer={
        <button
          type="button"
          onClick={logout}
          disabled={loggingOut}
          className="text-brand underline-offset-2 hover:underline disabled:opacity-60"
        >
          {loggingOut ? 'Signing out...' : 'Sign out instead'}
        </button>
      }
    >
      <title>Change Password · Parley</title>
      <AdminForm onSubmit={submit} className="space-y-4" aria-label="Change password">
        <FormAlert message={change.isError ? messageOr(change.error, 'Failed to change password') : null} />
        <input type="email" name="username" autoComplete="username" value={admin.email} readOnly hidden />
        {field('current', 'Current password', current, setCurrent, 'current-password')}
        {field('next', 'New password', next, setNext, 'new-password')}
        <p className="-mt-2 text-xs text-slate-500">At least {MIN_PASSWORD_LENGTH} characters.</p>
        {field('confirm', 'Confirm new password', confirm, setConfirm, 'new-password')}
        <button
          type="submit"
          disabled={pending}
          aria-busy={pending}
          className={`${primaryButton} w-full py-2.5`}
        >
          {pending ? (
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
          ) : (
            <KeyRound className="h-4 w-4" aria-hidden="true" />
          )}
          {pending ? 'Saving...' : 'Change Password'}
        </button>
      </AdminForm>
    </AuthCard>
  );
}

/** `/admin/change-password`: where an admin who must change the password lands after login. */
export default function ChangePasswordPage() {
  return (
    <AdminGuard>
      <ChangePasswordForm />
    </AdminGuard>
  );
}
