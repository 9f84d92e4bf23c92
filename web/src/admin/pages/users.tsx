import type { AdminRole, AdminUser, AdminUserList, CreateAdminUserResponse } from '@parley/contracts';
import { ADMIN_ROLES } from '@parley/contracts/enums';
import { MIN_PASSWORD_LENGTH } from '@parley/contracts/identity';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, ShieldAlert, Trash2, UserPlus, Users, X } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import { isEmail } from '../../lib/email.ts';
import { formatShortDateTime } from '../../lib/time.ts';
import { ROLE_LABELS } from '../components/admin-frame.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { InvitationLink } from '../components/invitation-link.tsx';
import { PasswordInput } from '../components/password-input.tsx';
import {
  Badge,
  cardClass,
  EmptyState,
  ErrorState,
  FieldError,
  inputClass,
  LoadingState,
  labelClass,
  PageHeader,
  primaryButton,
  secondaryButton,
  selectClass,
} from '../components/ui.tsx';
import { ADMIN_USERS_PATH, adminQueryRetry, adminRequest, messageOr } from '../lib/api.ts';
import { useAdmin } from '../lib/session.tsx';

interface NewUser {
  email: string;
  firstName: string;
  lastName: string;
  role: AdminRole;
  password: string;
}

const EMPTY_USER: NewUser = { email: '', firstName: '', lastName: '', role: 'admin', password: '' };

export const DELETE_CONFIRMATION =
  'Are you sure you want to delete this admin user? This action cannot be undone.';

/** May `me` delete `user`? Only a super_admin, never themself (spec §6). */
export const canDelete = (me: { id: string; role: AdminRole }, user: Pick<AdminUser, 'id'>) =>
  me.role === 'super_admin' && me.id !== user.id;

function CreateUserForm({
  onCreated,
  onCancel,
}: {
  onCreated: (res: CreateAdminUserResponse) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<NewUser>(EMPTY_USER);
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const set = <K extends keyof NewUser>(key: K, value: NewUser[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

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

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (create.isPending) return;
    const email = values.email.trim();
    const firstName = values.firstName.trim();
    const lastName = values.lastName.trim();
    if (!email || !firstName || !lastName) {
      setErrors({});
      toast({
        variant: 'destructive',
        title: 'Missing required fields',
        description: 'Please fill in all required fields',
      });
      return;
    }
    const found: typeof errors = {};
    if (!isEmail(email)) found.email = 'Please enter a valid email';
    if (values.password && values.password.length < MIN_PASSWORD_LENGTH)
      found.password = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
    setErrors(found);
    if (found.email) document.getElementById(`${id}-email`)?.focus();
    else if (found.password) document.getElementById(`${id}-password`)?.focus();
    if (found.email || found.password) return;
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
    <form
      noValidate
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
            onChange={(e) => set('firstName', e.target.value)}
          />
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
            onChange={(e) => set('lastName', e.target.value)}
          />
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
    </form>
  );
}

function UserRow({
  user,
  me,
  onDelete,
}: {
  user: AdminUser;
  me: { id: string; role: AdminRole };
  onDelete: () => void;
}) {
  const self = user.id === me.id;
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-4" data-testid="admin-user">
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <p className="font-medium text-white">
            {user.firstName} {user.lastName}
          </p>
          <Badge
            className={
              user.role === 'super_admin'
                ? 'border-violet-400/40 bg-violet-400/10 text-violet-200'
                : 'border-cyan-400/40 bg-cyan-400/10 text-cyan-200'
            }
          >
            {ROLE_LABELS[user.role]}
          </Badge>
          {self ? <Badge>You</Badge> : null}
          {!user.isActive ? (
            <Badge className="border-red-400/40 bg-red-400/10 text-red-200">Inactive</Badge>
          ) : null}
          {user.mustChangePassword ? (
            <Badge className="border-amber-400/40 bg-amber-400/10 text-amber-200">Must Change Password</Badge>
          ) : null}
          {user.invitationPending ? <Badge>Invitation Pending</Badge> : null}
        </div>
        <p className="truncate text-sm text-slate-400">{user.email}</p>
        <p className="text-xs text-slate-500">
          {user.lastLogin ? `Last login ${formatShortDateTime(user.lastLogin)}` : 'Never signed in'}
        </p>
      </div>
      {canDelete(me, user) ? (
        <button
          type="button"
          onClick={onDelete}
          aria-label={`Delete ${user.email}`}
          className={`${secondaryButton} hover:border-red-400/60 hover:text-red-200`}
        >
          <Trash2 className="h-4 w-4" aria-hidden="true" />
          Delete
        </button>
      ) : null}
    </li>
  );
}

/**
 * Admin user management (spec §2, §5, §6, §8), for super_admins: the list with its badges,
 * the create form (the invitation link is shown once), deletion with confirmation.
 */
export function UserManagement() {
  const admin = useAdmin();
  const queryClient = useQueryClient();
  const superAdmin = admin.role === 'super_admin';
  const [showForm, setShowForm] = useState(false);
  const [created, setCreated] = useState<CreateAdminUserResponse | null>(null);
  const [toDelete, setToDelete] = useState<AdminUser | null>(null);
  const formId = useId();

  const users = useQuery<AdminUserList>({
    queryKey: [ADMIN_USERS_PATH],
    enabled: superAdmin,
    ...adminQueryRetry,
  });

  const remove = useMutation({
    mutationFn: (user: AdminUser) =>
      adminRequest<{ success: true }>('DELETE', `${ADMIN_USERS_PATH}/${encodeURIComponent(user.id)}`),
    onSuccess: (_res, user) => {
      toast({ title: 'User deleted', description: `${user.email} no longer has access.` });
      queryClient.setQueryData<AdminUserList>([ADMIN_USERS_PATH], (list) =>
        list?.filter((u) => u.id !== user.id),
      );
      void queryClient.invalidateQueries({ queryKey: [ADMIN_USERS_PATH] });
      setToDelete(null);
    },
    onError: (err) => {
      toast({
        variant: 'destructive',
        title: 'Deletion failed',
        description: messageOr(err, 'Failed to delete admin user'),
      });
      setToDelete(null);
    },
  });

  if (!superAdmin) {
    return (
      <section>
        <title>User Management · Parley Admin</title>
        <PageHeader title="User Management" />
        <EmptyState icon={ShieldAlert} title="Super admins only">
          Managing admin users requires the Super Admin role. Ask a super admin if you need access for a
          colleague.
        </EmptyState>
      </section>
    );
  }

  return (
    <section>
      <title>User Management · Parley Admin</title>
      <PageHeader
        title="User Management"
        description="Invite colleagues to the back office and manage their access."
        actions={
          <button
            type="button"
            className={showForm ? secondaryButton : primaryButton}
            aria-expanded={showForm}
            aria-controls={formId}
            onClick={() => setShowForm((s) => !s)}
          >
            {showForm ? (
              <X className="h-4 w-4" aria-hidden="true" />
            ) : (
              <UserPlus className="h-4 w-4" aria-hidden="true" />
            )}
            Add New User
          </button>
        }
      />

      {created ? <InvitationLink created={created} onDismiss={() => setCreated(null)} /> : null}

      <div id={formId}>
        {showForm ? (
          <CreateUserForm
            onCreated={(res) => {
              setShowForm(false);
              setCreated(res);
            }}
            onCancel={() => setShowForm(false)}
          />
        ) : null}
      </div>

      <div className={`${cardClass} p-4 sm:p-5`}>
        <h2 className="text-lg font-semibold text-white">
          Admin Users{users.data ? ` (${users.data.length})` : ''}
        </h2>
        {users.isPending ? (
          <LoadingState label="Loading admin users..." />
        ) : users.isError ? (
          <div className="mt-4">
            <ErrorState
              title="Failed to fetch admin users"
              message={messageOr(users.error, '')}
              onRetry={() => void users.refetch()}
            />
          </div>
        ) : users.data.length === 0 ? (
          <div className="mt-4">
            <EmptyState icon={Users} title="No users found" />
          </div>
        ) : (
          <ul className="divide-y divide-navy-700">
            {users.data.map((u) => (
              <UserRow key={u.id} user={u} me={admin} onDelete={() => setToDelete(u)} />
            ))}
          </ul>
        )}
      </div>

      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => {
          if (!open && !remove.isPending) setToDelete(null);
        }}
        title="Delete admin user?"
        description={
          <>
            {DELETE_CONFIRMATION}
            {toDelete ? (
              <span className="mt-2 block font-medium text-white">
                {toDelete.firstName} {toDelete.lastName} ({toDelete.email})
              </span>
            ) : null}
          </>
        }
        confirmLabel={remove.isPending ? 'Deleting...' : 'Delete'}
        pending={remove.isPending}
        onConfirm={() => {
          if (toDelete) remove.mutate(toDelete);
        }}
      />
    </section>
  );
}

export default function UsersPage() {
  return <UserManagement />;
}
