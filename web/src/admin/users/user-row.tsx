import type { AdminRole, AdminUser } from '@parley/contracts';
import { Trash2 } from 'lucide-react';
import { formatShortDateTime } from '../../lib/time.ts';
import { ROLE_LABELS } from '../components/admin-frame.tsx';
import { Badge, secondaryButton } from '../components/ui.tsx';

/** May `me` delete `user`? Only a super_admin, never themself (spec §6). */
export const canDelete = (me: { id: string; role: AdminRole }, user: Pick<AdminUser, 'id'>) =>
  me.role === 'super_admin' && me.id !== user.id;

/** One admin in the list: name, role and state badges, last login, Delete when allowed. */
export function UserRow({
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
