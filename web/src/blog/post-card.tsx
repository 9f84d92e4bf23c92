import type { BlogPostSummary } from '@parley/contracts';
import { CalendarDays, Clock, ImageIcon, UserRound } from 'lucide-react';
import { Link } from 'react-router';
import { formatPostDate, postDate } from './api.ts';

/** Tags a card shows (spec §9: at most 3). */
export const CARD_TAG_LIMIT = 3;

export const tagClass =
  'inline-flex items-center rounded-full border border-cyan-400/30 bg-cyan-400/10 px-2.5 py-0.5 text-xs font-medium text-cyan-200';

export const tagHref = (tag: string) => `/blog?${new URLSearchParams({ tag })}`;

export function ReadingTime({ minutes }: { minutes: number }) {
  return (
    <span className="inline-flex items-center gap-1.5" data-testid="reading-time">
      <Clock className="h-4 w-4" aria-hidden="true" />
      {minutes} min read
    </span>
  );
}

/**
 * A post in the public list. The whole card is clickable through the title link's stretched
 * overlay; the tag links sit above it, so no link is nested in another.
 */
export function PostCard({ post }: { post: BlogPostSummary }) {
  const href = `/blog/${encodeURIComponent(post.slug)}`;
  const tags = post.tags.slice(0, CARD_TAG_LIMIT);
  return (
    <article
      className="group relative flex flex-col overflow-hidden rounded-2xl border border-navy-700 bg-navy-900 transition hover:border-brand/60 hover:shadow-lg hover:shadow-cyan-500/10"
      data-testid="blog-card"
    >
      <div className="aspect-[16/9] overflow-hidden bg-navy-800">
        {post.featuredImage ? (
          <img
            src={post.featuredImage}
            alt=""
            loading="lazy"
            decoding="async"
            className="h-full w-full object-cover transition duration-300 group-hover:scale-[1.02]"
          />
        ) : (
          <div className="flex h-full items-center justify-center text-slate-600">
            <ImageIcon className="h-10 w-10" aria-hidden="true" />
          </div>
        )}
      </div>
      <div className="flex flex-1 flex-col p-5">
        {tags.length ? (
          <ul className="relative z-10 mb-3 flex flex-wrap gap-2" aria-label="Tags">
            {tags.map((t) => (
              <li key={t}>
                <Link to={tagHref(t)} className={`${tagClass} hover:border-cyan-300/60`}>
                  {t}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
        <h2 className="text-xl font-semibold tracking-tight text-white">
          <Link
            to={href}
            className="rounded-sm after:absolute after:inset-0 after:content-[''] focus-visible:outline-none group-focus-within:underline"
          >
            {post.title}
          </Link>
        </h2>
        {post.excerpt ? <p className="mt-2 line-clamp-3 text-sm text-slate-300">{post.excerpt}</p> : null}
        <div className="mt-auto flex flex-wrap items-center gap-x-4 gap-y-1 pt-4 text-sm text-slate-400">
          <span className="inline-flex items-center gap-1.5">
            <UserRound className="h-4 w-4" aria-hidden="true" />
            {post.author}
          </span>
          <span className="inline-flex items-center gap-1.5">
            <CalendarDays className="h-4 w-4" aria-hidden="true" />
            <time dateTime={postDate(post)}>{formatPostDate(postDate(post))}</time>
          </span>
          <ReadingTime minutes={post.readingMinutes} />
        </div>
      </div>
    </article>
  );
}
