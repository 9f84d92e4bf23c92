import { MIN_PASSWORD_LENGTH } from '@parley/contracts/identity';
import { useMutation } from '@tanstack/react-query';
import { Clock, KeyRound, Loader2 } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import { validatePasswordChange } from '../auth/change-password-page.tsx';
import { useAdmin } from '../auth/session.tsx';
import { AdminForm } from '../components/form-feedback.tsx';
import { PasswordInput } from '../components/password-input.tsx';
import { cardClass, FieldError, FormAlert, labelClass, primaryButton } from '../components/ui.tsx';
import { adminRequest, messageOr, notePasswordChanged } from '../lib/api.ts';
import { CHANGE_PASSWORD_PATH } from './api.ts';

type Field = 'current' | 'next' | 'confirm';

/**
 * Change password (spec §2, §5): current password required, the new one at least 8
 * characters, through identity's POST /api/admin/change-password (the original form had no
 * submit handler). Identity ends the admin's other sessions; this one stays signed in.
 */
function ChangePasswordCard() {
  const id = useId();
  const admin = useAdmin();
  const [values, setValues] = useState<Record<Field, string>>({ current: '', next: '', confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const change = useMutation({
    mutationFn: () =>
      adminRequest<{ success: true }>('POST', CHANGE_PASSWORD_PATH, {
        currentPassword: values.current,
        newPassword: values.next,
      }),
    onSuccess: () => {
      notePasswordChanged();
      setValues({ current: '', next: '', confirm: '' });
      toast({
        title: 'Password changed',
        description: 'Your new password is now active. Other sessions were signed out.',
      });
    },
  });
  const submit = () => {
    if (change.isPending) return;
    const found = validatePasswordChange(values.current, values.next, values.confirm);
    setErrors(found);
    if (found.current || found.next || found.confirm) return found;
    change.mutate();
  };
  const field = (key: Field, label: string, autoComplete: string) => (
    <div>
      <label htmlFor={`${id}-${key}`} className={labelClass}>
        {label}
      </label>
      <PasswordInput
        id={`${id}-${key}`}
        autoComplete={autoComplete}
        maxLength={256}
        required
        aria-required="true"
        value={values[key]}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] ? `${id}-${key}-error` : undefined}
        onChange={(e) => {
          const v = e.target.value;
          setValues((x) => ({ ...x, [key]: v }));
          if (errors[key]) setErrors((x) => ({ ...x, [key]: undefined }));
        }}
      />
      <FieldError id={`${id}-${key}-error`} message={errors[key]} />
    </div>
  );
  return (
    <AdminForm
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      className={`${cardClass} space-y-4 p-4 sm:p-5`}
    >
      <h2 id={`${id}-title`} className="flex items-center gap-2 text-lg font-semibold text-white">
        <KeyRound className="h-5 w-5 text-brand" aria-hidden="true" />
        Change Password
      </h2>
      <FormAlert message={change.isError ? messageOr(change.error, 'Failed to change password') : null} />
      <input type="email" name="username" autoComplete="username" value={admin.email} readOnly hidden />
      {field('current', 'Current password', 'current-password')}
      {field('next', 'New password', 'new-password')}
      <p className="-mt-2 text-xs text-slate-400">At least {MIN_PASSWORD_LENGTH} characters.</p>
      {field('confirm', 'Confirm new password', 'new-password')}
      <button
        type="submit"
        className={primaryButton}
        disabled={change.isPending}
        aria-busy={change.isPending}
      >
        {change.isPending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : null}
        {change.isPending ? 'Saving...' : 'Change Password'}
      </button>
    </AdminForm>
  );
}

/** Security (spec §2): the session note and a change-password form that works. */
export function SecurityTab() {
  return (
    <div className="grid gap-6 lg:grid-cols-2 lg:items-start">
      <section aria-labelledby="session-title" className={`${cardClass} p-4 sm:p-5`}>
        <h2 id="session-title" className="mb-2 flex items-center gap-2 text-lg font-semibold text-white">
          <Clock className="h-5 w-5 text-brand" aria-hidden="true" />
          Sessions
        </h2>
        <p className="text-sm text-slate-200" data-testid="session-note">
          Sessions expire after 24 hours of inactivity.
        </p>
        <p className="mt-2 text-sm text-slate-400">
          The server enforces it: a session unused for 24 hours ends and its next request asks you to sign in
          again. Changing your password signs out your other sessions.
        </p>
      </section>
      <ChangePasswordCard />
    </div>
  );
}
