import {
  DEFAULT_NEWSLETTER_CUSTOMIZATIONS,
  NEWSLETTER_LIMITS,
  type NewsletterCustomizations,
} from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import clsx from 'clsx';
import { FileText, Loader2, RefreshCw, Wand2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { toast } from '../../components/toast/index.ts';
import { formatDate } from '../../lib/time.ts';
import { AdminForm } from '../components/form-feedback.tsx';
import {
  Badge,
  cardClass,
  EmptyState,
  ErrorState,
  inputClass,
  LoadingState,
  labelClass,
  primaryButton,
  secondaryButton,
} from '../components/ui.tsx';
import { messageOr } from '../lib/api.ts';
import { convertBlogPost, failureToast, refreshNewsletters, useBlogPosts } from './api.ts';

const OPTIONS: Array<{ key: keyof NewsletterCustomizations; label: string; hint: string }> = [
  { key: 'includeImage', label: 'Include featured image', hint: 'The post’s image at the top.' },
  { key: 'includeReadMore', label: 'Include "Read more" link', hint: 'A button to the full post.' },
  { key: 'includeShare', label: 'Include share links', hint: 'Share the post on social networks.' },
];

/**
 * Convert Blog Posts (email marketing §2): the published posts (the email service's copy of the
 * blog), one chosen, what the mail includes, an optional preheader; the button stays disabled
 * until a post is chosen. The new newsletter is a draft on the Newsletters tab.
 */
export function ConvertTab({ onConverted }: { onConverted: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const posts = useBlogPosts(true);
  const [chosen, setChosen] = useState<string | null>(null);
  const [options, setOptions] = useState<NewsletterCustomizations>(DEFAULT_NEWSLETTER_CUSTOMIZATIONS);
  const [preheader, setPreheader] = useState('');
  const list = posts.data?.posts ?? [];

  const convert = useMutation({
    mutationFn: (postId: string) =>
      convertBlogPost(postId, {
        customizations: options,
        ...(preheader.trim() ? { preheader: preheader.trim() } : {}),
      }),
    onSuccess: async (n, postId) => {
      const title = list.find((p) => p.id === postId)?.title;
      toast({
        title: 'Blog post converted',
        description: n
          ? `"${n.name}" is a new draft newsletter.`
          : `"${title ?? 'The post'}" is now a draft newsletter.`,
      });
      setChosen(null);
      setPreheader('');
      await refreshNewsletters(queryClient);
      onConverted();
    },
    onError: (err) => toast(failureToast('convert', err)),
  });

  if (posts.isPending) return <LoadingState label="Loading blog posts…" />;
  if (posts.isError)
    return (
      <ErrorState
        title="Failed to load blog posts"
        message={messageOr(posts.error, '')}
        onRetry={() => void posts.refetch()}
      />
    );
  return (
    <AdminForm
      className="space-y-4"
      onSubmit={() => {
        if (chosen) convert.mutate(chosen);
      }}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-white">Convert a blog post</h2>
          <p className="text-sm text-slate-400">Turn a published post into a newsletter draft.</p>
        </div>
        <button
          type="button"
          className={secondaryButton}
          disabled={posts.isFetching}
          onClick={() => void posts.refetch()}
        >
          <RefreshCw className={clsx('h-4 w-4', posts.isFetching && 'animate-spin')} aria-hidden="true" />
          Refresh posts
        </button>
      </div>
      {!list.length ? (
        <EmptyState icon={FileText} title="No published blog posts">
          Publish a post in{' '}
          <Link to="/blog-admin" className="text-brand underline">
            Blog Management
          </Link>{' '}
          to turn it into a newsletter.
        </EmptyState>
      ) : (
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-300">Choose a blog post</legend>
          <ul className="grid grid-cols-1 gap-3 lg:grid-cols-2" aria-label="Published blog posts">
            {list.map((p) => (
              <li key={p.id} className="min-w-0">
                <label
                  className={clsx(
                    cardClass,
                    'flex h-full cursor-pointer items-start gap-3 p-4 transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand/60',
                    chosen === p.id ? 'border-brand bg-brand/10' : 'hover:border-navy-600',
                  )}
                  data-testid="blog-post-option"
                >
                  <input
                    type="radio"
                    name={`${id}-post`}
                    value={p.id}
                    className="mt-1 h-4 w-4 shrink-0 accent-cyan-500"
                    checked={chosen === p.id}
                    onChange={() => setChosen(p.id)}
                  />
                  <span className="min-w-0 flex-1">
                    <span className="block font-semibold break-words text-white">{p.title}</span>
                    {p.excerpt ? (
                      <span className="mt-1 line-clamp-2 block text-sm break-words text-slate-300">
                        {p.excerpt}
                      </span>
                    ) : null}
                    <span className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-400">
                      <span>{p.author}</span>
                      {p.publishedAt ? <span>· {formatDate(p.publishedAt)}</span> : null}
                      {p.newsletterCount ? <Badge>{plural(p.newsletterCount, 'newsletter')}</Badge> : null}
                    </span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
      <div className={clsx(cardClass, 'space-y-4 p-4')}>
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-300">Customise</legend>
          <div className="grid gap-2 sm:grid-cols-3">
            {OPTIONS.map((o) => (
              <label key={o.key} className="flex items-start gap-2 text-sm text-slate-200">
                <input
                  type="checkbox"
                  className="mt-0.5 h-4 w-4 shrink-0 accent-cyan-500"
                  checked={options[o.key]}
                  onChange={(e) => setOptions((x) => ({ ...x, [o.key]: e.target.checked }))}
                />
                <span>
                  <span className="block">{o.label}</span>
                  <span className="block text-xs text-slate-400">{o.hint}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <label htmlFor={`${id}-preheader`} className={labelClass}>
            Preheader <span className="font-normal text-slate-400">(optional)</span>
          </label>
          <input
            id={`${id}-preheader`}
            className={inputClass}
            value={preheader}
            maxLength={NEWSLETTER_LIMITS.preheader}
            placeholder="The line inboxes show after the subject"
            onChange={(e) => setPreheader(e.target.value)}
          />
        </div>
        <div className="flex flex-wrap items-center justify-end gap-3">
          {!chosen ? <p className="text-xs text-slate-400">Choose a post to convert.</p> : null}
          <ConvertButton busy={convert.isPending} disabled={!chosen} />
        </div>
      </div>
    </AdminForm>
  );
}

function ConvertButton({ busy, disabled }: { busy: boolean; disabled: boolean }) {
  return (
    <button type="submit" className={primaryButton} disabled={disabled || busy} aria-busy={busy}>
      {busy ? (
        <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
      ) : (
        <Wand2 className="h-4 w-4" aria-hidden="true" />
      )}
      Convert to Newsletter
    </button>
  );
}
