import type { BlogPost, BlogStatus } from '@parley/contracts';
import { CalendarDays, ImageIcon, Loader2, Pencil, Trash2, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatPostDate } from '../../blog/api.ts';
import { Badge, secondaryButton } from '../components/ui.tsx';
import { STATUS_LABELS } from './post-form.tsx';

/** Tags a row in the admin list shows (spec: up to 2). */
export const ROW_TAG_LIMIT = 2;

export const STATUS_BADGE: Record<BlogStatus, string> = {
  published: 'border-emerald-400/40 bg-emerald-400/10 text-emerald-200',
  draft: 'border-amber-400/40 bg-amber-400/10 text-amber-200',
  archived: 'border-slate-500/40 bg-slate-500/10 text-slate-300',
};

export function StatusBadge({ status }: { status: BlogStatus }) {
  return <Badge className={STATUS_BADGE[status]}>{STATUS_LABELS[status]}</Badge>;
}

/** Spec: the published date if present, else the created date. */
export function rowDate(post: BlogPost): { label: string; iso: string } {
  return post.publishedAt
    ? { label: 'Published', iso: post.publishedAt }
    : { label: 'Created', iso: post.createdAt };
}

/** A post in the admin lists: status badge, up to 2 tags, title, excerpt, author, date; actions on the side. */
export function PostRow({ post, actions }: { post: BlogPost; actions: ReactNode }) {
  const date = rowDate(post);
  const more = post.tags.length - ROW_TAG_LIMIT;
  return (
    <li className="flex flex-col gap-4 py-4 sm:flex-row sm:items-start" data-testid="blog-admin-post">
      <div className="hidden h-16 w-24 shrink-0 overflow-hidden rounded-lg border border-navy-700 bg-navy-800 sm:block">
        {post.featuredImage ? (
          <img src={post.featuredImage} alt="" loading="lazy" className="h-full w-full object-cover" />
        ) : (
          <div className="flex h-full items-center justify-center text-slate-600">
            <ImageIcon className="h-5 w-5" aria-hidden="true" />
          </div>
        )}
      </div>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge status={post.status} />
          {post.tags.slice(0, ROW_TAG_LIMIT).map((t) => (
            <Badge key={t}>{t}</Badge>
          ))}
          {more > 0 ? <span className="text-xs text-slate-500">+{more} more</span> : null}
        </div>
        <h3 className="mt-2 font-semibold break-words text-white">{post.title}</h3>
        {post.excerpt ? <p className="mt-1 line-clamp-2 text-sm text-slate-400">{post.excerpt}</p> : null}
        <p className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-500">
          <span className="inline-flex items-center gap-1">
            <UserRound className="h-3.5 w-3.5" aria-hidden="true" />
            {post.author}
          </span>
          <span className="inline-flex items-center gap-1">
            <CalendarDays className="h-3.5 w-3.5" aria-hidden="true" />
            {date.label} <time dateTime={date.iso}>{formatPostDate(date.iso)}</time>
          </span>
          <span className="font-mono">/blog/{post.slug}</span>
        </p>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>
    </li>
  );
}

/** A row's Edit action (both admin lists). */
export function EditPostButton({ post, onEdit }: { post: BlogPost; onEdit: (post: BlogPost) => void }) {
  return (
    <button
      type="button"
      className={secondaryButton}
      aria-label={`Edit ${post.title}`}
      onClick={() => onEdit(post)}
    >
      <Pencil className="h-4 w-4" aria-hidden="true" />
      Edit
    </button>
  );
}

/** A row's Delete action (both admin lists); `busy` while this post's deletion runs. */
export function DeletePostButton({
  post,
  busy = false,
  onDelete,
}: {
  post: BlogPost;
  busy?: boolean;
  onDelete: (post: BlogPost) => void;
}) {
  return (
    <button
      type="button"
      className={`${secondaryButton} hover:border-red-400/60 hover:text-red-200`}
      aria-label={`Delete ${post.title}`}
      disabled={busy}
      aria-busy={busy}
      onClick={() => onDelete(post)}
    >
      {busy ? (
        <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
      ) : (
        <Trash2 className="h-4 w-4" aria-hidden="true" />
      )}
      Delete
    </button>
  );
}
