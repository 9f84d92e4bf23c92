import type { BlogPost, BlogPostInput } from '@parley/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { DialogFrame } from '../../components/dialog.tsx';
import { type ToastInput, toast } from '../../components/toast/index.ts';
import { trackEvent } from '../../lib/analytics.ts';
import { messageOr } from '../lib/api.ts';
import { createPost, refreshBlog, updatePost } from './api.ts';
import { PostForm } from './post-form.tsx';

/** Where the dialog is used: the two places word their toasts differently (spec §8). */
export type BlogScreen = 'blog-admin' | 'console';

const reason = (err: unknown) => {
  const m = messageOr(err, '');
  return m ? ` ${m}` : '';
};

export const SAVE_TOASTS: Record<
  BlogScreen,
  {
    created: (p: BlogPost) => ToastInput;
    updated: (p: BlogPost) => ToastInput;
    createFailed: (err: unknown) => ToastInput;
    updateFailed: (err: unknown) => ToastInput;
  }
> = {
  'blog-admin': {
    created: () => ({ title: 'Success', description: 'Blog post created successfully.' }),
    updated: () => ({ title: 'Success', description: 'Blog post updated successfully.' }),
    createFailed: (err) => ({
      variant: 'destructive',
      title: 'Error',
      description: `Failed to create blog post.${reason(err)}`,
    }),
    updateFailed: (err) => ({
      variant: 'destructive',
      title: 'Error',
      description: `Failed to update blog post.${reason(err)}`,
    }),
  },
  console: {
    created: (p) => ({ title: 'Blog post created', description: `"${p.title}" was saved.` }),
    updated: (p) => ({ title: 'Blog post updated', description: `"${p.title}" was saved.` }),
    createFailed: (err) => ({
      variant: 'destructive',
      title: 'Creation failed',
      description: messageOr(err, 'Failed to create blog post'),
    }),
    updateFailed: (err) => ({
      variant: 'destructive',
      title: 'Update failed',
      description: messageOr(err, 'Failed to update blog post'),
    }),
  },
};

/**
 * The dialog frame of the blog screens: the web's one frame (src/components/dialog.tsx); a
 * click beside it never closes it, so a long form's work is not thrown away.
 */
export function BlogDialog({
  open,
  onOpenChange,
  title,
  description,
  wide,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      size={wide ? 'xl' : 'md'}
      closeOnOutsideClick={false}
      flushBottom
    >
      {children}
    </DialogFrame>
  );
}

/**
 * 'Create New Blog Post' (post null) or 'Edit Blog Post': the post form and its save call,
 * with the screen's toasts and the create_post / edit_post analytics events.
 */
export function PostDialog({
  open,
  post,
  screen,
  onClose,
}: {
  open: boolean;
  post: BlogPost | null;
  screen: BlogScreen;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const texts = SAVE_TOASTS[screen];
  const save = useMutation({
    mutationFn: (input: BlogPostInput) => (post ? updatePost(post.id, input) : createPost(input)),
    onSuccess: async (saved) => {
      toast(post ? texts.updated(saved) : texts.created(saved));
      trackEvent(post ? 'edit_post' : 'create_post', {
        category: 'blog',
        label: saved.slug,
        status: saved.status,
      });
      onClose();
      await refreshBlog(queryClient, saved);
    },
    onError: (err) => toast(post ? texts.updateFailed(err) : texts.createFailed(err)),
  });

  return (
    <BlogDialog
      open={open}
      onOpenChange={(o) => {
        if (!o && !save.isPending) onClose();
      }}
      title={post ? 'Edit Blog Post' : 'Create New Blog Post'}
      description={
        post
          ? 'Change the post and save. Published changes show on the blog at once.'
          : 'Write a post yourself or let AI draft it from a topic, then review and save.'
      }
      wide
    >
      {/* Keyed by post so opening another post starts from its own values. */}
      <PostForm
        key={post?.id ?? 'new'}
        post={post}
        pending={save.isPending}
        onSubmit={(input) => save.mutate(input)}
        onCancel={onClose}
      />
    </BlogDialog>
  );
}
