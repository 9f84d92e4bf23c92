import type { BlogPost, BlogPostInput, BlogStatus, GeneratedPost } from '@parley/contracts';
import {
  BLOG_LIMITS,
  BLOG_STATUSES,
  DEFAULT_BLOG_AUTHOR,
  parseTags,
  SLUG_PATTERN,
  slugify,
} from '@parley/contracts/blog';
import { Loader2, Save } from 'lucide-react';
import { type ReactNode, useId, useRef, useState } from 'react';
import { AdminForm } from '../components/form-feedback.tsx';
import {
  FieldError,
  inputClass,
  labelClass,
  primaryButton,
  secondaryButton,
  selectClass,
} from '../components/ui.tsx';
import { AiGenerationBox } from './ai-generation-box.tsx';
import { fromLocalInput, toLocalInput } from './api.ts';
import { FeaturedImageField } from './image-field.tsx';

export const STATUS_LABELS: Record<BlogStatus, string> = {
  draft: 'Draft',
  published: 'Published',
  archived: 'Archived',
};

interface FormValues {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  author: string;
  status: BlogStatus;
  tags: string;
  featuredImage: string;
  metaTitle: string;
  metaDescription: string;
  /** datetime-local value ('YYYY-MM-DDTHH:mm'), browser zone. */
  publishedAt: string;
}

type FieldErrors = Partial<Record<'title' | 'slug' | 'content', string>>;

const SLUG_RE = new RegExp(SLUG_PATTERN);
const SLUG_RULE_MESSAGE =
  'Slug may contain only lowercase letters, numbers and single hyphens (for example "my-first-post")';

function initialValues(post: BlogPost | null): FormValues {
  return {
    title: post?.title ?? '',
    slug: post?.slug ?? '',
    excerpt: post?.excerpt ?? '',
    content: post?.content ?? '',
    author: post?.author ?? DEFAULT_BLOG_AUTHOR,
    status: post?.status ?? 'draft',
    tags: post?.tags.join(', ') ?? '',
    featuredImage: post?.featuredImage ?? '',
    metaTitle: post?.metaTitle ?? '',
    metaDescription: post?.metaDescription ?? '',
    publishedAt: toLocalInput(post?.publishedAt ?? null),
  };
}

/** The request body of the form (spec §7: the same fields for create and update). */
function toInput(v: FormValues): BlogPostInput {
  return {
    title: v.title.trim(),
    slug: v.slug.trim(),
    excerpt: v.excerpt.trim() || null,
    content: v.content,
    author: v.author.trim() || null,
    featuredImage: v.featuredImage.trim() || null,
    tags: parseTags(v.tags),
    status: v.status,
    metaTitle: v.metaTitle.trim() || null,
    metaDescription: v.metaDescription.trim() || null,
    // Only a published post has a date of its own; empty means "now" (the service sets it).
    // The instant is sent with its zone so a server in another zone reads the same moment.
    ...(v.status === 'published' ? { publishedAt: fromLocalInput(v.publishedAt) } : {}),
  };
}

function Field({
  id,
  label,
  required,
  hint,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
        {required ? (
          <span className="text-brand" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {children}
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
    </div>
  );
}

/**
 * The post form (spec §2 "Post form", §5): AI generation, title, slug with Generate, excerpt,
 * content, author, status, tags, featured image, SEO fields, and the published date when
 * published. Required: title, slug, content.
 */
export function PostForm({
  post,
  pending,
  onSubmit,
  onCancel,
}: {
  /** The post being edited, or null to create one. */
  post: BlogPost | null;
  pending: boolean;
  onSubmit: (input: BlogPostInput) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [values, setValues] = useState<FormValues>(() => initialValues(post));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [imageBusy, setImageBusy] = useState(false);
  // A new post's slug follows its title until the admin edits the slug.
  const slugEdited = useRef(post !== null);
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  const onTitle = (title: string) =>
    setValues((v) => ({ ...v, title, slug: slugEdited.current ? v.slug : slugify(title) }));

  const onGenerated = (g: GeneratedPost) => {
    slugEdited.current = true;
    setErrors({});
    setValues((v) => ({
      ...v,
      title: g.title,
      slug: g.slug,
      excerpt: g.excerpt,
      content: g.content,
      tags: g.tags.join(', '),
      metaTitle: g.metaTitle,
      metaDescription: g.metaDescription,
      featuredImage: g.featuredImage ?? v.featuredImage,
    }));
  };

  const submit = () => {
    if (pending || imageBusy) return;
    const found: FieldErrors = {};
    if (!values.title.trim()) found.title = 'Title is required';
    const slug = values.slug.trim();
    if (!slug) found.slug = 'Slug is required';
    else if (!SLUG_RE.test(slug)) found.slug = SLUG_RULE_MESSAGE;
    if (!values.content.trim()) found.content = 'Content is required';
    setErrors(found);
    if (found.title || found.slug || found.content) return found;
    onSubmit(toInput(values));
  };

  const invalid = (k: keyof FieldErrors) =>
    errors[k] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${k}-error` } : {};

  return (
    <AdminForm onSubmit={submit} className="space-y-5" aria-label={post ? 'Edit post' : 'New post'}>
      <AiGenerationBox onGenerated={onGenerated} />

      <Field id={`${id}-title`} label="Title" required>
        <input
          id={`${id}-title`}
          className={inputClass}
          value={values.title}
          maxLength={BLOG_LIMITS.title}
          aria-required="true"
          {...invalid('title')}
          onChange={(e) => onTitle(e.target.value)}
        />
        <FieldError id={`${id}-title-error`} message={errors.title} />
      </Field>

      <Field
        id={`${id}-slug`}
        label="Slug"
        required
        hint={`Address of the post: /blog/${values.slug || '...'}`}
      >
        <div className="flex gap-2">
          <input
            id={`${id}-slug`}
            className={`${inputClass} font-mono`}
            value={values.slug}
            maxLength={BLOG_LIMITS.slug}
            aria-required="true"
            autoCapitalize="off"
            spellCheck={false}
            {...invalid('slug')}
            onChange={(e) => {
              slugEdited.current = true;
              set('slug', e.target.value);
            }}
          />
          <button
            type="button"
            className={`${secondaryButton} shrink-0`}
            onClick={() => {
              slugEdited.current = true;
              set('slug', slugify(values.title));
            }}
          >
            Generate
          </button>
        </div>
        <FieldError id={`${id}-slug-error`} message={errors.slug} />
      </Field>

      <Field id={`${id}-excerpt`} label="Excerpt">
        <textarea
          id={`${id}-excerpt`}
          rows={2}
          className={inputClass}
          value={values.excerpt}
          maxLength={BLOG_LIMITS.excerpt}
          onChange={(e) => set('excerpt', e.target.value)}
        />
      </Field>

      <Field
        id={`${id}-content`}
        label="Content"
        required
        hint="Plain text. Leave a blank line between paragraphs; a short line on its own becomes a heading."
      >
        <textarea
          id={`${id}-content`}
          rows={8}
          className={`${inputClass} min-h-40`}
          value={values.content}
          maxLength={BLOG_LIMITS.content}
          aria-required="true"
          {...invalid('content')}
          onChange={(e) => set('content', e.target.value)}
        />
        <FieldError id={`${id}-content-error`} message={errors.content} />
      </Field>

      <div className="grid gap-5 sm:grid-cols-2">
        <Field id={`${id}-author`} label="Author">
          <input
            id={`${id}-author`}
            className={inputClass}
            value={values.author}
            maxLength={BLOG_LIMITS.author}
            placeholder={DEFAULT_BLOG_AUTHOR}
            onChange={(e) => set('author', e.target.value)}
          />
        </Field>
        <Field id={`${id}-status`} label="Status">
          <select
            id={`${id}-status`}
            className={selectClass}
            value={values.status}
            onChange={(e) => set('status', e.target.value as BlogStatus)}
          >
            {BLOG_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </Field>
      </div>

      <Field
        id={`${id}-tags`}
        label="Tags"
        hint={`Comma separated, up to ${BLOG_LIMITS.tags}. e.g. Healthcare, AI Voice Agents`}
      >
        <input
          id={`${id}-tags`}
          className={inputClass}
          value={values.tags}
          maxLength={2000}
          onChange={(e) => set('tags', e.target.value)}
        />
      </Field>

      <FeaturedImageField
        value={values.featuredImage}
        onChange={(url) => set('featuredImage', url)}
        onBusyChange={setImageBusy}
      />

      <fieldset className="grid gap-5 rounded-xl border border-navy-700 p-4">
        <legend className="px-1 text-sm font-medium text-slate-300">Search &amp; sharing</legend>
        <Field
          id={`${id}-meta-title`}
          label="Meta Title"
          hint={`Shown by search engines; the title is used when empty (${values.metaTitle.length}/${BLOG_LIMITS.metaTitle}).`}
        >
          <input
            id={`${id}-meta-title`}
            className={inputClass}
            value={values.metaTitle}
            maxLength={BLOG_LIMITS.metaTitle}
            onChange={(e) => set('metaTitle', e.target.value)}
          />
        </Field>
        <Field
          id={`${id}-meta-description`}
          label="Meta Description"
          hint={`The excerpt is used when empty (${values.metaDescription.length}/${BLOG_LIMITS.metaDescription}).`}
        >
          <textarea
            id={`${id}-meta-description`}
            rows={2}
            className={inputClass}
            value={values.metaDescription}
            maxLength={BLOG_LIMITS.metaDescription}
            onChange={(e) => set('metaDescription', e.target.value)}
          />
        </Field>
      </fieldset>

      {values.status === 'published' ? (
        <Field
          id={`${id}-published-at`}
          label="Published Date"
          hint="Leave empty to publish now. A future date keeps the post off the blog until then."
        >
          <input
            id={`${id}-published-at`}
            type="datetime-local"
            className={inputClass}
            value={values.publishedAt}
            onChange={(e) => set('publishedAt', e.target.value)}
          />
        </Field>
      ) : null}

      {/* Actions sit on the left: the toasts appear at the bottom right and must not cover Save. */}
      <div className="sticky bottom-0 -mx-5 flex flex-wrap items-center gap-2 border-t border-navy-700 bg-navy-900/95 px-5 py-3 backdrop-blur sm:-mx-6 sm:px-6">
        <button type="submit" className={primaryButton} disabled={pending || imageBusy} aria-busy={pending}>
          {pending ? (
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
          ) : (
            <Save className="h-4 w-4" aria-hidden="true" />
          )}
          {pending ? 'Saving...' : post ? 'Update Post' : 'Create Post'}
        </button>
        <button type="button" className={secondaryButton} onClick={onCancel} disabled={pending}>
          Cancel
        </button>
        {imageBusy ? <span className="text-xs text-slate-400">Waiting for the image...</span> : null}
      </div>
    </AdminForm>
  );
}
