import type { BlogPost, BlogPostList } from '@parley/contracts';
import { BLOG_LIMITS, slugify } from '@parley/contracts/blog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ArrowUpRight, Eye, EyeOff, FileText, Loader2, Sparkles, Wand2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { toast } from '../../components/toast/index.ts';
import { trackEvent } from '../../lib/analytics.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { AdminForm } from '../components/form-feedback.tsx';
import {
  cardClass,
  EmptyState,
  ErrorState,
  inputClass,
  LoadingState,
  PageHeader,
  primaryButton,
  secondaryButton,
} from '../components/ui.tsx';
import { messageOr } from '../lib/api.ts';
import {
  BLOG_ALL_PATH,
  createPost,
  generateArticle,
  refreshBlog,
  updatePost,
  useAllPosts,
  writerName,
} from './api.ts';
import { useDeletePost, ViewLink } from './page.tsx';
import { BlogDialog, PostDialog } from './post-dialog.tsx';
import { DeletePostButton, EditPostButton, PostRow } from './post-row.tsx';

const TOPIC_REQUIRED = 'Please enter a topic or description for the article';

export const CONSOLE_DELETE_CONFIRMATION = 'Are you sure you want to delete this blog post?';

/** A slug no other post has: the generated one, else with -2, -3, ... appended. */
export function freeSlug(base: string, taken: ReadonlySet<string>): string {
  const root = base || 'post';
  if (!taken.has(root)) return root;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${root.slice(0, BLOG_LIMITS.slug - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * 'Generate AI Blog Post': a topic and the featured-image choice; the article is written and
 * saved as a draft, with a progress line (and elapsed time) while the writer works.
 */
function GenerateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [topic, setTopic] = useState('');
  const [topicMissing, setTopicMissing] = useState(false);
  const [withImage, setWithImage] = useState(true);
  const [elapsed, setElapsed] = useState(0);

  const generate = useMutation({
    mutationFn: async (body: { topic: string; generateImage: boolean }) => {
      const res = await generateArticle(body);
      if (!res?.post?.title) throw new Error('Invalid response from content generation');
      const existing = queryClient.getQueryData<BlogPostList>([BLOG_ALL_PATH]) ?? [];
      const { post: g } = res;
      const post = await createPost({
        title: g.title,
        slug: freeSlug(g.slug || slugify(g.title), new Set(existing.map((p) => p.slug))),
        excerpt: g.excerpt,
        content: g.content,
        tags: g.tags,
        metaTitle: g.metaTitle,
        metaDescription: g.metaDescription,
        featuredImage: g.featuredImage,
        status: 'draft',
      });
      return { post, provider: res.provider };
    },
    onSuccess: async ({ post, provider }) => {
      toast({
        title: 'Blog post generated',
        description: `"${post.title}" was written by ${writerName(provider)} and saved as a draft.`,
      });
      trackEvent('create_post', { category: 'blog', label: post.slug, status: post.status, source: 'ai' });
      setTopic('');
      onClose();
      await refreshBlog(queryClient, post);
    },
    onError: (err) => {
      toast({
        variant: 'destructive',
        title: 'Generation failed',
        description: messageOr(err, 'Failed to generate blog post'),
      });
    },
  });

  useEffect(() => {
    if (!generate.isPending) return;
    const started = Date.now();
    setElapsed(0);
    const timer = setInterval(() => setElapsed(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [generate.isPending]);

  const submit = () => {
    if (generate.isPending) return;
    if (!topic.trim()) {
      toast({
        variant: 'destructive',
        title: 'Generation failed',
        description: TOPIC_REQUIRED,
      });
      setTopicMissing(true);
      return [TOPIC_REQUIRED];
    }
    generate.mutate({ topic: topic.trim(), generateImage: withImage });
  };

  return (
    <BlogDialog
      open={open}
      onOpenChange={(o) => {
        if (!o && !generate.isPending) onClose();
      }}
      title="Generate AI Blog Post"
      description="Give a topic; the AI writer drafts the article (and a featured image) and saves it as a draft for you to review."
    >
      <AdminForm onSubmit={submit} className="space-y-4 pb-5">
        <div>
          <label htmlFor={`${id}-topic`} className="mb-1 block text-sm font-medium text-slate-300">
            Topic or description
          </label>
          <textarea
            id={`${id}-topic`}
            rows={3}
            className={inputClass}
            value={topic}
            maxLength={BLOG_LIMITS.topic}
            disabled={generate.isPending}
            placeholder="e.g. How law firms qualify new clients with AI phone intake"
            aria-invalid={topicMissing ? true : undefined}
            onChange={(e) => {
              setTopic(e.target.value);
              setTopicMissing(false);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault();
                e.currentTarget.form?.requestSubmit();
              }
            }}
          />
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-300">
          <input
            type="checkbox"
            checked={withImage}
            disabled={generate.isPending}
            onChange={(e) => setWithImage(e.target.checked)}
            className="h-4 w-4 accent-cyan-400"
          />
          Auto-generate a featured image
        </label>
        {generate.isPending ? (
          <p role="status" className="flex items-center gap-2 text-sm text-cyan-100">
            <Loader2 className="h-4 w-4 animate-spin text-brand" aria-hidden="true" />
            Writing the article{withImage ? ' and its featured image' : ''}... {elapsed}s
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButton} disabled={generate.isPending} onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className={primaryButton}
            disabled={generate.isPending}
            aria-busy={generate.isPending}
          >
            {generate.isPending ? (
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
            ) : (
              <Wand2 className="h-4 w-4" aria-hidden="true" />
            )}
            {generate.isPending ? 'Generating...' : 'Generate Post'}
          </button>
        </div>
      </AdminForm>
    </BlogDialog>
  );
}

/**
 * The console's Blog tab (spec §2 "Console"): the posts with Publish/Unpublish, Edit (Edit
 * Blog Post dialog), View and Delete (with confirmation), and 'Generate AI Blog Post'.
 */
export function ConsoleBlogTab() {
  const queryClient = useQueryClient();
  const posts = useAllPosts();
  const [generating, setGenerating] = useState(false);
  const [editing, setEditing] = useState<BlogPost | null>(null);
  const [editOpen, setEditOpen] = useState(false);
  const [toDelete, setToDelete] = useState<BlogPost | null>(null);

  const toggle = useMutation({
    mutationFn: (post: BlogPost) =>
      updatePost(post.id, { status: post.status === 'published' ? 'draft' : 'published' }),
    onSuccess: async (saved) => {
      toast({
        title: 'Blog post updated',
        description:
          saved.status === 'published'
            ? `"${saved.title}" is now published on the blog.`
            : `"${saved.title}" was unpublished and is a draft again.`,
      });
      trackEvent('edit_post', { category: 'blog', label: saved.slug, status: saved.status });
      await refreshBlog(queryClient, saved);
    },
    onError: (err) => {
      toast({
        variant: 'destructive',
        title: 'Update failed',
        description: messageOr(err, 'Failed to update blog post'),
      });
    },
  });
  const togglingId = toggle.isPending ? toggle.variables?.id : undefined;

  const remove = useDeletePost({
    deleted: (p) => ({ title: 'Blog post deleted', description: `"${p.title}" was deleted.` }),
    failed: (err) => ({
      variant: 'destructive',
      title: 'Deletion failed',
      description: messageOr(err, 'Failed to delete blog post'),
    }),
  });

  return (
    <section>
      <title>AI Blog · Parley Admin</title>
      <PageHeader
        title="AI Blog"
        description="Generate posts with AI, publish or unpublish them, and keep them up to date."
        actions={
          <>
            <Link to="/blog-admin" className={secondaryButton}>
              <ArrowUpRight className="h-4 w-4" aria-hidden="true" />
              Blog Management
            </Link>
            <button type="button" className={primaryButton} onClick={() => setGenerating(true)}>
              <Sparkles className="h-4 w-4" aria-hidden="true" />
              Generate AI Blog Post
            </button>
          </>
        }
      />

      {posts.isPending ? (
        <LoadingState label="Loading blog posts..." />
      ) : posts.isError ? (
        <ErrorState
          title="Failed to fetch blog posts"
          message={messageOr(posts.error, '')}
          onRetry={() => void posts.refetch()}
        />
      ) : posts.data.length === 0 ? (
        <EmptyState icon={FileText} title="No blog posts yet">
          Generate your first post with AI, or write one in Blog Management.
        </EmptyState>
      ) : (
        <div className={`${cardClass} px-4 sm:px-5`}>
          <ul className="divide-y divide-navy-700" aria-label="Blog posts">
            {posts.data.map((p) => {
              const published = p.status === 'published';
              return (
                <PostRow
                  key={p.id}
                  post={p}
                  actions={
                    <>
                      <button
                        type="button"
                        className={published ? secondaryButton : primaryButton}
                        aria-label={`${published ? 'Unpublish' : 'Publish'} ${p.title}`}
                        disabled={togglingId === p.id}
                        aria-busy={togglingId === p.id}
                        onClick={() => toggle.mutate(p)}
                      >
                        {togglingId === p.id ? (
                          <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
                        ) : published ? (
                          <EyeOff className="h-4 w-4" aria-hidden="true" />
                        ) : (
                          <Eye className="h-4 w-4" aria-hidden="true" />
                        )}
                        {published ? 'Unpublish' : 'Publish'}
                      </button>
                      <EditPostButton
                        post={p}
                        onEdit={(post) => {
                          setEditing(post);
                          setEditOpen(true);
                        }}
                      />
                      <ViewLink post={p} />
                      <DeletePostButton post={p} onDelete={setToDelete} />
                    </>
                  }
                />
              );
            })}
          </ul>
        </div>
      )}

      <GenerateDialog open={generating} onClose={() => setGenerating(false)} />
      {editing ? (
        <PostDialog open={editOpen} post={editing} screen="console" onClose={() => setEditOpen(false)} />
      ) : null}
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => {
          if (!open && !remove.isPending) setToDelete(null);
        }}
        title="Delete blog post?"
        description={
          <>
            {CONSOLE_DELETE_CONFIRMATION}
            {toDelete ? (
              <span className="mt-2 block font-medium break-words text-white">{toDelete.title}</span>
            ) : null}
          </>
        }
        confirmLabel={remove.isPending ? 'Deleting...' : 'Delete'}
        pending={remove.isPending}
        onConfirm={() => {
          if (toDelete) remove.mutate(toDelete, { onSettled: () => setToDelete(null) });
        }}
      />
    </section>
  );
}
