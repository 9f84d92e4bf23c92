import type { AdminRole, CreateAdminUserResponse } from '@parley/contracts';
import { ADMIN_ROLES } from '@parley/contracts/enums';
import { MIN_PASSWORD_LENGTH } from '@parley/contracts/identity';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2, UserPlus } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import { isEmail } from '../../lib/email.ts';
import { ROLE_LABELS } from '../components/admin-frame.tsx';
import { AdminForm } from '../components/form-feedback.tsx';
import { PasswordInput } from '../components/password-input.tsx';
import {
  cardClass,
  FieldError,
  inputClass,
  labelClass,
  primaryButton,
  secondaryButton,
  selectClass,
} from '../components/ui.tsx';
import { ADMIN_USERS_PATH, adminRequest, messageOr } from '../lib/api.ts';

export interface NewUser {
  email: string;
  firstName: string;
  lastName: string;
  role: AdminRole;
  password: string;
}

type Errors = Partial<Record<'firstName' | 'lastName' | 'email' | 'password', string>>;

export const EMPTY_USER: NewUser = { email: '', firstName: '', lastName: '', role: 'admin', password: '' };

/** The create form: fields, client checks, the request; the invitation link comes back once. */
export function CreateUserForm({
  onCreated,
  onCancel,
}: {
  onCreated: (res: CreateAdminUserResponse) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<NewUser>(EMPTY_USER);
  const [errors, setErrors] = useState<Errors>({});
  const set = <K extends keyof NewUser>(key: K, value: NewUser[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => (key in e ? { ...e, [key]: undefined } : e));
  };

  const create = useMutation({
    mutationFn: (body: Omit<NewUser, 'password'> & { password?: string }) =>
      adminRequest<CreateAdminUserResponse>('POST', ADMIN_USERS_PATH, body),
    onSuccess: (res) => {
      toast({
        title: 'User created',
        description: `${res.user.firstName} ${res.user.lastName} was invited via email.`,
      });
      void queryClient.invalidateQueries({ queryKey: [ADMIN_USERS_PATH] });
      setValues(EMPTY_USER);
      onCreated(res);
    },
    onError: (err) => {
      toast({
        variant: 'destructive',
        title: 'Creation failed',
        description: messageOr(err, 'Failed to create admin user'),
      });
    },
  });

  const submit = () => {
    if (create.isPending) return;
    const email = values.email.trim();
    const firstName = values.firstName.trim();
    const lastName = values.lastName.trim();
    const found: Errors = {};
    if (!firstName) found.firstName = 'First name is required';
    if (!lastName) found.lastName = 'Last name is required';
    if (!email) found.email = 'Email is required';
    if (found.firstName || found.lastName || found.email) {
      setErrors(found);
      // The spec's notice for missing fields (§5), beside the marked fields.
      toast({
        variant: 'destructive',
        title: 'Missing required fields',
        description: 'Please fill in all required fields',
      });
      return found;
    }
    if (!isEmail(email)) found.email = 'Please enter a valid email';
    if (values.password && values.password.length < MIN_PASSWORD_LENGTH)
      found.password = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
    setErrors(found);
    if (found.email || found.password) return found;
    create.mutate({
      email,
      firstName,
      lastName,
      role: values.role,
      ...(values.password ? { password: values.password } : {}),
    });
  };

  const required = (
    <span className="text-brand" aria-hidden="true">
      {' '}
      *
    </span>
  );

  return (
    <AdminForm
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      className={`${cardClass} mb-6 space-y-4 p-4 sm:p-5`}
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
        Create Admin User
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-first`} className={labelClass}>
            First Name{required}
          </label>
          <input
            id={`${id}-first`}
            autoComplete="off"
            aria-required="true"
            maxLength={100}
            className={inputClass}
            value={values.firstName}
            aria-invalid={errors.firstName ? true : undefined}
            aria-describedby={errors.firstName ? `${id}-first-error` : undefined}
            onChange={(e) => set('firstName', e.target.value)}
          />
          <FieldError id={`${id}-first-error`} message={errors.firstName} />
        </div>
        <div>
          <label htmlFor={`${id}-last`} className={labelClass}>
            Last Name{required}
          </label>
          <input
            id={`${id}-last`}
            autoComplete="off"
            aria-required="true"
            maxLength={100}
            className={inputClass}
            value={values.lastName}
            aria-invalid={errors.lastName ? true : undefined}
            aria-describedby={errors.lastName ? `${id}-last-error` : undefined}
            onChange={(e) => set('lastName', e.target.value)}
          />
          <FieldError id={`${id}-last-error`} message={errors.lastName} />
        </div>
        <div>
          <label htmlFor={`${id}-email`} className={labelClass}>
            Email{required}
          </label>
          <input
            id={`${id}-email`}
            type="email"
            autoComplete="off"
            aria-required="true"
            maxLength={254}
            className={inputClass}
            value={values.email}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? `${id}-email-error` : undefined}
            onChange={(e) => set('email', e.target.value)}
          />
          <FieldError id={`${id}-email-error`} message={errors.email} />
        </div>
        <div>
          <label htmlFor={`${id}-role`} className={labelClass}>
            Role
          </label>
          <select
            id={`${id}-role`}
            className={selectClass}
            value={values.role}
            onChange={(e) => set('role', e.target.value as AdminRole)}
          >
            {ADMIN_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <div className="sm:col-span-2">
          <label htmlFor={`${id}-password`} className={labelClass}>
            Temporary password (optional)
          </label>
          <PasswordInput
            id={`${id}-password`}
            autoComplete="new-password"
            maxLength={256}
            value={values.password}
            aria-invalid={errors.password ? true : undefined}
            aria-describedby={`${id}-password-hint${errors.password ? ` ${id}-password-error` : ''}`}
            onChange={(e) => set('password', e.target.value)}
          />
          <p id={`${id}-password-hint`} className="mt-1 text-xs text-slate-500">
            The new admin must change it at first sign-in. Leave empty to let them choose one from the
            invitation link.
          </p>
          <FieldError id={`${id}-password-error`} message={errors.password} />
        </div>
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className={secondaryButton} onClick={onCancel}>
          Cancel
        </button>
        <button
          type="submit"
          className={primaryButton}
          disabled={create.isPending}
          aria-busy={create.isPending}
        >
          {create.isPending ? (
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
          ) : (
            <UserPlus className="h-4 w-4" aria-hidden="true" />
          )}
          {create.isPending ? 'Creating...' : 'Create User'}
        </button>
      </div>
    </AdminForm>
  );
}
