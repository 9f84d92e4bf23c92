import type { LoginResponse } from '@parley/contracts';
import { useMutation } from '@tanstack/react-query';
import { Loader2, LogIn } from 'lucide-react';
import { useId, useState } from 'react';
import { isEmail } from '../../lib/email.ts';
import { AdminForm } from '../components/form-feedback.tsx';
import { PasswordInput } from '../components/password-input.tsx';
import { FieldError, FormAlert, inputClass, labelClass, primaryButton } from '../components/ui.tsx';
import { login, messageOr } from '../lib/api.ts';

interface FieldErrors {
  email?: string;
  password?: string;
}

/** The first problem of each field (spec §5), or nothing. */
export function validateLogin(email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!isEmail(email.trim())) errors.email = 'Please enter a valid email';
  if (!password) errors.password = 'Password is required';
  return errors;
}

/**
 * Email, password (show/hide) and Sign In (spec §2 "Login screen", §5, §8): field errors
 * under the fields, the server's error or 'Login failed' in a red alert.
 */
export function LoginForm({
  onSuccess,
  submitLabel = 'Sign In',
}: {
  onSuccess: (res: LoginResponse) => void | Promise<void>;
  submitLabel?: string;
}) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});

  const mutation = useMutation({
    mutationFn: (body: { email: string; password: string }) => login(body.email, body.password),
    onSuccess: async (res) => {
      await onSuccess(res);
    },
  });

  const submit = () => {
    if (mutation.isPending) return;
    const found = validateLogin(email, password);
    setErrors(found);
    if (found.email || found.password) return found;
    mutation.mutate({ email: email.trim(), password });
  };

  const failure = mutation.isError ? messageOr(mutation.error, 'Login failed') : null;
  const pending = mutation.isPending || mutation.isSuccess;

  return (
    <AdminForm onSubmit={submit} className="space-y-4" aria-label="Admin sign in">
      <FormAlert message={failure} />
      <div>
        <label htmlFor={`${id}-email`} className={labelClass}>
          Email
        </label>
        <input
          id={`${id}-email`}
          name="email"
          type="email"
          autoComplete="username"
          inputMode="email"
          maxLength={254}
          placeholder="you@company.com"
          className={inputClass}
          value={email}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? `${id}-email-error` : undefined}
          onChange={(e) => {
            setEmail(e.target.value);
            if (errors.email) setErrors((x) => ({ ...x, email: undefined }));
          }}
        />
        <FieldError id={`${id}-email-error`} message={errors.email} />
      </div>
      <div>
        <label htmlFor={`${id}-password`} className={labelClass}>
          Password
        </label>
        <PasswordInput
          id={`${id}-password`}
          name="password"
          autoComplete="current-password"
          maxLength={1024}
          value={password}
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={errors.password ? `${id}-password-error` : undefined}
          onChange={(e) => {
            setPassword(e.target.value);
            if (errors.password) setErrors((x) => ({ ...x, password: undefined }));
          }}
        />
        <FieldError id={`${id}-password-error`} message={errors.password} />
      </div>
      <button
        type="submit"
        disabled={pending}
        aria-busy={pending}
        className={`${primaryButton} w-full py-2.5`}
      >
        {pending ? (
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
        ) : (
          <LogIn className="h-4 w-4" aria-hidden="true" />
        )}
        {pending ? 'Signing in...' : submitLabel}
      </button>
    </AdminForm>
  );
}
