import type { BlogPost } from '@parley/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ArrowUpRight, ExternalLink, FileText, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from '../../components/toast/index.ts';
import { trackEvent } from '../../lib/analytics.ts';
import {
  cardClass,
  ErrorState,
  LoadingState,
  PageHeader,
  primaryButton,
  secondaryButton,
} from '../components/ui.tsx';
import { messageOr } from '../lib/api.ts';
import { deletePost, dropFromList, refreshBlog, useAllPosts } from './api.ts';
import { PostDialog } from './post-dialog.tsx';
import { DeletePostButton, EditPostButton, PostRow } from './post-row.tsx';

/** Open the public page of a post in a new tab (spec: the 'view' action). */
export function ViewLink({ post }: { post: BlogPost }) {
  return (
    <a
      href={`/blog/${encodeURIComponent(post.slug)}`}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`View ${post.title} (opens in a new tab)`}
      title={post.status === 'published' ? 'Open on the blog' : 'Only published posts are on the blog'}
      className={secondaryButton}
    >
      <ExternalLink className="h-4 w-4" aria-hidden="true" />
      View
    </a>
  );
}

/** Deletes a post with the blog screen's toasts and the delete_post event; `onDone` runs either way. */
export function useDeletePost(texts: {
  deleted: (p: BlogPost) => Parameters<typeof toast>[0];
  failed: (err: unknown) => Parameters<typeof toast>[0];
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (post: BlogPost) => deletePost(post.id),
    onSuccess: async (_res, post) => {
      toast(texts.deleted(post));
      trackEvent('delete_post', { category: 'blog', label: post.slug });
      dropFromList(queryClient, post.id);
      await refreshBlog(queryClient);
    },
    onError: (err) => toast(texts.failed(err)),
  });
}

/**
 * Blog management at /blog-admin (spec §2 "Blog management"): every post with its status,
 * view / edit / delete, and 'New Post'. Deleting here has no confirmation (spec §5); the
 * console's Blog tab asks first.
 */
export function BlogManagement() {
  const posts = useAllPosts();
  // The edited post stays set while its dialog closes, so the form never flips to 'create'.
  const [editing, setEditing] = useState<BlogPost | null>(null);
  const [editOpen, setEditOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const remove = useDeletePost({
    deleted: () => ({ title: 'Success', description: 'Blog post deleted successfully.' }),
    failed: (err) => {
      const m = messageOr(err, '');
      return {
        variant: 'destructive',
        title: 'Error',
        description: `Failed to delete blog post.${m ? ` ${m}` : ''}`,
      };
    },
  });
  const deletingId = remove.isPending ? remove.variables?.id : undefined;

  const newPost = (
    <>
      {/* The console's Blog view: publish/unpublish in one click, and AI drafts. */}
      <Link to="/admin/blog" className={secondaryButton}>
        <ArrowUpRight className="h-4 w-4" aria-hidden="true" />
        AI Blog console
      </Link>
      <button type="button" className={primaryButton} onClick={() => setCreating(true)}>
        <Plus className="h-4 w-4" aria-hidden="true" />
        New Post
      </button>
    </>
  );

  return (
    <section>
      <title>Blog Management · Parley Admin</title>
      <PageHeader
        title="Blog Management"
        description="Write, generate with AI, publish and edit the posts of the public blog."
        actions={newPost}
      />

      {posts.isPending ? (
        <LoadingState label="Loading blog management..." />
      ) : posts.isError ? (
        <ErrorState
          title="Failed to fetch blog posts"
          message={messageOr(posts.error, '')}
          onRetry={() => void posts.refetch()}
        />
      ) : posts.data.length === 0 ? (
        <div className={`${cardClass} flex flex-col items-center px-6 py-14 text-center`}>
          <FileText className="h-10 w-10 text-slate-500" aria-hidden="true" />
          <p className="mt-3 text-lg font-semibold text-white">No blog posts yet</p>
          <p className="mt-1 max-w-md text-sm text-slate-400">
            Write your first post, or give the AI writer a topic and review its draft.
          </p>
          <button type="button" className={`${primaryButton} mt-5`} onClick={() => setCreating(true)}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            Create First Post
          </button>
        </div>
      ) : (
        <div className={`${cardClass} px-4 sm:px-5`}>
          <ul className="divide-y divide-navy-700" aria-label="Blog posts">
            {posts.data.map((p) => (
              <PostRow
                key={p.id}
                post={p}
                actions={
                  <>
                    <ViewLink post={p} />
                    <EditPostButton
                      post={p}
                      onEdit={(post) => {
                        setEditing(post);
                        setEditOpen(true);
                      }}
                    />
                    <DeletePostButton
                      post={p}
                      busy={deletingId === p.id}
                      onDelete={(post) => remove.mutate(post)}
                    />
                  </>
                }
              />
            ))}
          </ul>
        </div>
      )}

      <PostDialog open={creating} post={null} screen="blog-admin" onClose={() => setCreating(false)} />
      {editing ? (
        <PostDialog open={editOpen} post={editing} screen="blog-admin" onClose={() => setEditOpen(false)} />
      ) : null}
    </section>
  );
}

export default function BlogAdminPage() {
  return <BlogManagement />;
}
