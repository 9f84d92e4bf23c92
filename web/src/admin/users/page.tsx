import type { AdminUser, AdminUserList, CreateAdminUserResponse } from '@parley/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ShieldAlert, UserPlus, Users, X } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import { useAdmin } from '../auth/session.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import {
  cardClass,
  EmptyState,
  ErrorState,
  LoadingState,
  PageHeader,
  primaryButton,
  secondaryButton,
} from '../components/ui.tsx';
import { ADMIN_USERS_PATH, adminQueryRetry, adminRequest, messageOr } from '../lib/api.ts';
import { CreateUserForm } from './create-user-form.tsx';
import { InvitationLink } from './invitation-link.tsx';
import { UserRow } from './user-row.tsx';

export const DELETE_CONFIRMATION =
  'Are you sure you want to delete this admin user? This action cannot be undone.';

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
