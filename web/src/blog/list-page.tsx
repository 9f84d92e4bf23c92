import { AlertCircle, BookOpen, Loader2, X } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { PageMeta, SITE_NAME } from '../components/seo/page-meta.tsx';
import { useBlogPosts } from './api.ts';
import { PostCard, tagClass } from './post-card.tsx';

const LIST_DESCRIPTION =
  'Guides and field notes on AI voice agents: answering calls, booking appointments and qualifying leads for healthcare, real estate, legal, finance and hospitality teams.';

function CardSkeleton() {
  return (
    <div className="overflow-hidden rounded-2xl border border-navy-700 bg-navy-900" aria-hidden="true">
      <div className="aspect-[16/9] animate-pulse bg-navy-800" />
      <div className="space-y-3 p-5">
        <div className="h-4 w-24 animate-pulse rounded bg-navy-700" />
        <div className="h-6 w-4/5 animate-pulse rounded bg-navy-700" />
        <div className="h-4 w-full animate-pulse rounded bg-navy-800" />
        <div className="h-4 w-2/3 animate-pulse rounded bg-navy-800" />
      </div>
    </div>
  );
}

/** The public blog (spec §2 "Blog"): post cards, a loading state, 'No Blog Posts Yet'; optional tag filter. */
export default function BlogListPage() {
  const [params] = useSearchParams();
  const tag = params.get('tag')?.trim() || null;
  const query = useBlogPosts(tag);
  const posts = query.data?.pages.flatMap((p) => p.posts) ?? [];
  const path = tag ? `/blog?${new URLSearchParams({ tag })}` : '/blog';
  const pageTitle = tag ? `Posts tagged “${tag}” · ${SITE_NAME} Blog` : 'Blog';

  return (
    <section aria-labelledby="blog-title" className="pt-28 pb-20 sm:pt-32">
      <PageMeta title={pageTitle} description={LIST_DESCRIPTION} path={path} />
      <link rel="alternate" type="application/rss+xml" title={`${SITE_NAME} Blog`} href="/rss.xml" />

      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <header className="mb-10 max-w-2xl">
          <p className="text-sm font-semibold tracking-wider text-brand uppercase">Blog</p>
          <h1 id="blog-title" className="mt-2 text-4xl font-bold tracking-tight text-white sm:text-5xl">
            Insights on AI voice agents
          </h1>
          <p className="mt-4 text-lg text-slate-300">{LIST_DESCRIPTION}</p>
          {tag ? (
            <p className="mt-6 flex flex-wrap items-center gap-2 text-sm text-slate-300">
              Showing posts tagged <span className={tagClass}>{tag}</span>
              <Link
                to="/blog"
                className="inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-slate-400 hover:text-white"
              >
                <X className="h-3.5 w-3.5" aria-hidden="true" />
                Show all posts
              </Link>
            </p>
          ) : null}
        </header>

        {query.isPending ? (
          <div
            role="status"
            aria-label="Loading blog posts"
            className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3"
          >
            <CardSkeleton />
            <CardSkeleton />
            <CardSkeleton />
          </div>
        ) : query.isError && posts.length === 0 ? (
          <div role="alert" className="rounded-2xl border border-red-500/40 bg-red-500/10 p-8 text-center">
            <p className="flex items-center justify-center gap-2 font-medium text-red-200">
              <AlertCircle className="h-5 w-5" aria-hidden="true" />
              {query.error?.message || 'Failed to fetch blog posts'}
            </p>
            <button
              type="button"
              onClick={() => void query.refetch()}
              className="mt-4 rounded-lg border border-red-400/50 px-4 py-2 text-sm text-red-100 hover:bg-red-500/20"
            >
              Try again
            </button>
          </div>
        ) : posts.length === 0 ? (
          <div className="flex flex-col items-center rounded-2xl border border-navy-700 bg-navy-900 px-6 py-16 text-center">
            <BookOpen className="h-12 w-12 text-slate-500" aria-hidden="true" />
            <h2 className="mt-4 text-xl font-semibold text-white">No Blog Posts Yet</h2>
            <p className="mt-2 max-w-md text-sm text-slate-400">
              {tag
                ? 'Nothing has been published with this tag yet.'
                : 'We are working on our first articles. Check back soon.'}
            </p>
          </div>
        ) : (
          <>
            <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {posts.map((p) => (
                <PostCard key={p.id} post={p} />
              ))}
            </div>
            {query.isFetchNextPageError ? (
              <p role="alert" className="mt-8 text-center text-sm text-red-300">
                Failed to fetch blog posts
              </p>
            ) : null}
            {query.hasNextPage ? (
              <div className="mt-10 flex justify-center">
                <button
                  type="button"
                  onClick={() => void query.fetchNextPage()}
                  disabled={query.isFetchingNextPage}
                  aria-busy={query.isFetchingNextPage}
                  className="inline-flex items-center gap-2 rounded-lg border border-navy-600 px-5 py-2.5 text-sm font-medium text-slate-200 transition hover:border-brand/70 hover:text-white disabled:opacity-60"
                >
                  {query.isFetchingNextPage ? (
                    <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
                  ) : null}
                  {query.isFetchingNextPage ? 'Loading...' : 'Load more posts'}
                </button>
              </div>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}
