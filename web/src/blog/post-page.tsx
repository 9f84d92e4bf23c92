import { readingMinutes } from '@parley/contracts/blog';
import { POST_NOT_FOUND_TITLE } from '@parley/contracts/blog-head';
import { AlertCircle, ArrowLeft, CalendarDays, UserRound } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { trackEvent } from '../lib/analytics.ts';
import { formatPostDate, postDate, postErrorText, useBlogPost } from './api.ts';
import { PostBody } from './post-body.tsx';
import { ReadingTime, tagClass, tagHref } from './post-card.tsx';
import { PostMeta } from './seo.tsx';

function BackLink() {
  return (
    <Link
      to="/blog"
      className="inline-flex items-center gap-2 rounded-md text-sm font-medium text-slate-300 transition hover:text-brand"
    >
      <ArrowLeft className="h-4 w-4" aria-hidden="true" />
      Back to Blog
    </Link>
  );
}

function PostSkeleton() {
  return (
    <div role="status" aria-label="Loading blog post" className="space-y-4">
      <div className="h-5 w-32 animate-pulse rounded bg-navy-700" />
      <div className="h-10 w-4/5 animate-pulse rounded bg-navy-700" />
      <div className="h-5 w-2/3 animate-pulse rounded bg-navy-800" />
      <div className="aspect-[16/9] animate-pulse rounded-2xl bg-navy-800" />
      <div className="h-4 w-full animate-pulse rounded bg-navy-800" />
      <div className="h-4 w-5/6 animate-pulse rounded bg-navy-800" />
    </div>
  );
}

/**
 * One post (spec §2 "Blog"): back link, tags, title, excerpt, author, date, reading time,
 * featured image, body and last-updated date; 'Blog Post Not Found' on error. The page
 * carries its own title, description, Open Graph tags and Article JSON-LD.
 */
export default function BlogPostPage() {
  const { slug = '' } = useParams();
  const query = useBlogPost(slug);
  const loadedSlug = query.data?.slug;

  // Spec: blog reading is reported as a blog_post_interaction event (when analytics is present).
  useEffect(() => {
    if (loadedSlug)
      trackEvent('blog_post_interaction', { category: 'blog', label: loadedSlug, action: 'read' });
  }, [loadedSlug]);

  return (
    <div className="mx-auto max-w-3xl px-4 pt-28 pb-20 sm:px-6 sm:pt-32">
      {query.isPending ? (
        <PostSkeleton />
      ) : query.isError ? (
        <section
          aria-labelledby="post-missing"
          className="rounded-2xl border border-navy-700 bg-navy-900 p-8 text-center"
        >
          <title>{POST_NOT_FOUND_TITLE}</title>
          <meta name="robots" content="noindex" />
          <AlertCircle className="mx-auto h-10 w-10 text-red-400" aria-hidden="true" />
          <h1 id="post-missing" className="mt-4 text-2xl font-bold text-white">
            Blog Post Not Found
          </h1>
          <p className="mt-2 text-sm text-slate-400">
            {postErrorText(query.error)}. It may have been moved or unpublished.
          </p>
          <div className="mt-6">
            <BackLink />
          </div>
        </section>
      ) : (
        <article aria-labelledby="post-title">
          <PostMeta post={query.data} />
          <BackLink />
          {query.data.tags.length ? (
            <ul className="mt-8 flex flex-wrap gap-2" aria-label="Tags">
              {query.data.tags.map((t) => (
                <li key={t}>
                  <Link to={tagHref(t)} className={`${tagClass} hover:border-cyan-300/60`}>
                    {t}
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
          <h1
            id="post-title"
            className="mt-4 text-3xl font-bold tracking-tight break-words text-white sm:text-4xl lg:text-[2.75rem] lg:leading-tight"
          >
            {query.data.title}
          </h1>
          {query.data.excerpt ? (
            <p className="mt-4 text-xl leading-relaxed text-slate-300">{query.data.excerpt}</p>
          ) : null}
          <div className="mt-6 flex flex-wrap items-center gap-x-5 gap-y-2 border-b border-navy-700 pb-6 text-sm text-slate-400">
            <span className="inline-flex items-center gap-1.5">
              <UserRound className="h-4 w-4" aria-hidden="true" />
              {query.data.author}
            </span>
            <span className="inline-flex items-center gap-1.5">
              <CalendarDays className="h-4 w-4" aria-hidden="true" />
              <time dateTime={postDate(query.data)}>{formatPostDate(postDate(query.data))}</time>
            </span>
            <ReadingTime minutes={readingMinutes(query.data.content)} />
          </div>
          {query.data.featuredImage ? (
            <img
              src={query.data.featuredImage}
              alt=""
              decoding="async"
              className="mt-8 aspect-[16/9] w-full rounded-2xl border border-navy-700 object-cover"
            />
          ) : null}
          <div className="mt-10">
            <PostBody content={query.data.content} />
          </div>
          <footer className="mt-12 border-t border-navy-700 pt-6 text-sm text-slate-400">
            Last updated: <time dateTime={query.data.updatedAt}>{formatPostDate(query.data.updatedAt)}</time>
          </footer>
        </article>
      )}
    </div>
  );
}
