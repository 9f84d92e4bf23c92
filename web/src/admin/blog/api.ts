import type {
  AiProvider,
  BlogPost,
  BlogPostInput,
  BlogPostList,
  GenerateBlogBody,
  GenerateBlogResponse,
  GenerateImageResponse,
  UploadImageResponse,
} from '@parley/contracts';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { BLOG_PATH } from '../../blog/api.ts';
import { apiErrorOfXhr } from '../../lib/api.ts';
import { adminQueryRetry, adminRequest } from '../lib/api.ts';

/**
 * Blog authoring calls (spec §7; paths as in the gateway's route table): every post,
 * create/update/delete, AI writing, AI images and uploads.
 */

export const BLOG_ALL_PATH = '/api/blog/all';
const postPath = (id: string) => `/api/admin/blog/${encodeURIComponent(id)}`;

/** Every post (drafts too), newest first (spec: generated posts appear sorted newest first). */
export function useAllPosts() {
  return useQuery<BlogPostList, Error, BlogPostList>({
    queryKey: [BLOG_ALL_PATH],
    select: (list) => [...list].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt)),
    ...adminQueryRetry,
  });
}

export const createPost = (input: BlogPostInput) => adminRequest<BlogPost>('POST', '/api/blog', input);
export const updatePost = (id: string, input: BlogPostInput) =>
  adminRequest<BlogPost>('PATCH', postPath(id), input);
export const deletePost = (id: string) => adminRequest<{ success: true }>('DELETE', postPath(id));

export const generateArticle = (body: GenerateBlogBody) =>
  adminRequest<GenerateBlogResponse>('POST', '/api/admin/generate-blog', body);
/** Spec: image provider 'auto' (the service uses OpenAI when configured, else its local generator). */
export const generateImage = (prompt: string) =>
  adminRequest<GenerateImageResponse>('POST', '/api/admin/generate-image', { prompt, provider: 'auto' });

/** Who did the work, as the toasts name it: never a vendor that was not called. */
export const writerName = (p: AiProvider) => (p === 'openai' ? 'OpenAI' : 'the local writer');
export const imageMakerName = (p: AiProvider) => (p === 'openai' ? 'OpenAI' : 'the local image generator');

/**
 * Uploads an image as multipart field `image` with XMLHttpRequest, whose upload progress
 * events fetch does not offer. Marked with `X-Requested-With: parley` (the gateway's CSRF
 * rule for a cookie-authenticated change without a JSON body). Errors read like the data
 * layer's: `Error("{status}: {body}")`.
 */
export function uploadImage(
  file: File,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<UploadImageResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/admin/upload-image');
    xhr.withCredentials = true;
    xhr.setRequestHeader('X-Requested-With', 'parley');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0)
        onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          const body = JSON.parse(xhr.responseText) as Partial<UploadImageResponse>;
          if (typeof body.imageUrl === 'string') return resolve({ imageUrl: body.imageUrl });
        } catch {
          // fall through to the error below
        }
        return reject(new Error('Invalid response from the image upload'));
      }
      reject(apiErrorOfXhr(xhr));
    };
    xhr.onerror = () => reject(new Error('Network error while uploading the image'));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('image', file);
    xhr.send(form);
  });
}

/** After any write: the admin list and every public blog read (list and posts) are refreshed. */
export async function refreshBlog(queryClient: QueryClient, changed?: BlogPost): Promise<void> {
  if (changed) {
    queryClient.setQueryData<BlogPostList>([BLOG_ALL_PATH], (list) =>
      list?.some((p) => p.id === changed.id)
        ? list.map((p) => (p.id === changed.id ? changed : p))
        : list && [changed, ...list],
    );
  }
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: [BLOG_ALL_PATH] }),
    queryClient.invalidateQueries({ queryKey: [BLOG_PATH] }),
  ]);
}

export function dropFromList(queryClient: QueryClient, id: string): void {
  queryClient.setQueryData<BlogPostList>([BLOG_ALL_PATH], (list) => list?.filter((p) => p.id !== id));
}

/** 'YYYY-MM-DDTHH:mm' in the browser's zone, the value of a datetime-local input (spec §9). */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The instant a datetime-local value means in the browser's zone (the server may run in another). */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}
