import { signInAsAdmin, toasts, unique } from './support/admin.ts';
import { expect, type Locator, type Page, test } from './support/test.ts';

/**
 * The blog end to end, against the real platform (gateway + identity + blog, local AI writer
 * and image generator): authoring in /blog-admin and the console's Blog tab, reading on
 * /blog and /blog/{slug}. Every post gets a unique title, so other specs' data never matters.
 */

/** A 1×1 PNG, for the upload. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

interface PublicPost {
  title: string;
  slug: string;
  content: string;
  metaTitle: string | null;
  tags: string[];
}

/** Events the page reported to window.dataLayer (no analytics script is loaded). */
async function trackedEvents(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (window.dataLayer ?? []).map((e) => (e as { event?: string }).event ?? '').filter(Boolean),
  );
}

/** The spec's reading time: words / 200, rounded up. */
const readingMinutes = (content: string) =>
  Math.max(1, Math.ceil(content.trim().split(/\s+/).filter(Boolean).length / 200));

function row(page: Page, title: string): Locator {
  return page.getByTestId('blog-admin-post').filter({ has: page.getByRole('heading', { name: title }) });
}

test('an admin generates a post with the local writer, publishes it, and readers see it until it is unpublished', async ({
  page,
}) => {
  const topic = `Voice agents for dental clinics ${unique()}`;
  await signInAsAdmin(page);

  // New Post → AI generation fills the form (written by the local writer, with an image).
  await page.goto('/blog-admin');
  await expect(page.getByRole('heading', { name: 'Blog Management', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New Post' }).click();
  const create = page.getByRole('dialog', { name: 'Create New Blog Post' });
  await expect(create.getByLabel('Auto-generate a featured image')).toBeChecked();
  await create.getByLabel('Topic or description').fill(topic);
  await create.getByLabel('Topic or description').press('Enter');
  await expect(toasts(page)).toContainText('Written by the local writer, with a featured image');
  const titleInput = create.getByRole('textbox', { name: 'Title', exact: true });
  await expect(titleInput).not.toHaveValue('');
  const title = await titleInput.inputValue();
  const slug = await create.getByRole('textbox', { name: 'Slug', exact: true }).inputValue();
  expect(slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  await expect(create.getByLabel('Tags')).toHaveValue(/Healthcare/);
  await expect(create.getByRole('textbox', { name: 'Content', exact: true })).not.toHaveValue('');
  await expect(create.getByRole('img', { name: 'Current featured visual' })).toHaveAttribute(
    'src',
    /^\/api\/blog\/images\//,
  );
  // Published Date is only offered for a published post.
  await expect(create.getByLabel('Published Date')).toHaveCount(0);

  await create.getByRole('button', { name: 'Create Post' }).click();
  await expect(toasts(page).getByText('Blog post created successfully.')).toBeVisible();
  await expect(create).toBeHidden();
  expect(await trackedEvents(page)).toContain('create_post');
  await expect(row(page, title).getByText('Draft', { exact: true })).toBeVisible();

  // A draft is not on the blog.
  expect((await page.request.get(`/api/blog/${slug}`)).status()).toBe(404);

  // Publish through the edit form.
  await row(page, title)
    .getByRole('button', { name: `Edit ${title}` })
    .click();
  const edit = page.getByRole('dialog', { name: 'Edit Blog Post' });
  await expect(edit.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue(title);
  await edit.getByLabel('Status').selectOption('published');
  await expect(edit.getByLabel('Published Date')).toBeVisible();
  await edit.getByRole('button', { name: 'Update Post' }).click();
  await expect(toasts(page).getByText('Blog post updated successfully.')).toBeVisible();
  await expect(edit).toBeHidden();
  expect(await trackedEvents(page)).toContain('edit_post');
  await expect(row(page, title).getByText('Published', { exact: true })).toBeVisible();

  const res = await page.request.get(`/api/blog/${slug}`);
  expect(res.status()).toBe(200);
  const post = (await res.json()) as PublicPost;
  const minutes = readingMinutes(post.content);

  // The public list: a card with the title, the reading time and at most 3 tags.
  await page.goto('/blog');
  await expect(page).toHaveTitle('Blog · Parley');
  const card = page.getByTestId('blog-card').filter({ hasText: title });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('reading-time')).toHaveText(`${minutes} min read`);
  const cardTags = card.getByRole('list', { name: 'Tags' }).getByRole('listitem');
  expect(await cardTags.count()).toBe(Math.min(3, post.tags.length));

  // The post page: title, tags, reading time, body, last-updated date and its metadata.
  await card.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`/blog/${slug}$`));
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Blog' })).toBeVisible();
  await expect(page.getByTestId('reading-time')).toHaveText(`${minutes} min read`);
  for (const tag of post.tags) {
    await expect(
      page.getByRole('list', { name: 'Tags' }).getByRole('link', { name: tag, exact: true }),
    ).toBeVisible();
  }
  await expect(page.getByTestId('post-body')).toContainText('Why it matters now');
  await expect(page.getByText(/^Last updated:/)).toBeVisible();
  await expect(page).toHaveTitle(`${post.metaTitle ?? post.title} · Parley Blog`);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', title);
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article');
  const ld = JSON.parse(
    (await page.locator('script[type="application/ld+json"]').textContent()) ?? '',
  ) as Record<string, unknown>;
  expect(ld['@type']).toBe('Article');
  expect(ld.headline).toBe(title);
  expect(String(ld.url)).toMatch(new RegExp(`/blog/${slug}$`));

  // What a link preview that runs no JavaScript reads: the gateway serves the post's own head.
  const served = await page.request.get(`/blog/${slug}`);
  expect(served.status()).toBe(200);
  const servedHead = await page.evaluate(
    (html) => {
      const doc = new DOMParser().parseFromString(html, 'text/html');
      return {
        title: doc.title,
        ogTitle: doc.querySelector('meta[property="og:title"]')?.getAttribute('content'),
        ogType: doc.querySelector('meta[property="og:type"]')?.getAttribute('content'),
      };
    },
    await served.text(),
  );
  expect(servedHead).toEqual({
    title: `${post.metaTitle ?? post.title} · Parley Blog`,
    ogTitle: title,
    ogType: 'article',
  });
  // Loaded directly, the page keeps one set of tags (the app's), and none outlives it.
  await page.goto(`/blog/${slug}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(`${post.metaTitle ?? post.title} · Parley Blog`);
  await expect(page.locator('title')).toHaveCount(1);
  await expect(page.locator('meta[property="og:title"]')).toHaveCount(1);
  await expect(page.locator('[data-server-head]')).toHaveCount(0);
  await page.getByRole('link', { name: 'Back to Blog' }).click();
  await expect(page).toHaveTitle('Blog · Parley');
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'website');
  await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(0);

  // The console's Blog tab unpublishes it.
  await page.goto('/admin?section=blog');
  await expect(page.getByRole('heading', { name: 'AI Blog', level: 1 })).toBeVisible();
  await row(page, title)
    .getByRole('button', { name: `Unpublish ${title}` })
    .click();
  await expect(toasts(page).getByText('Blog post updated', { exact: true })).toBeVisible();
  await expect(row(page, title).getByRole('button', { name: `Publish ${title}` })).toBeVisible();
  await expect(row(page, title).getByText('Draft', { exact: true })).toBeVisible();

  // Gone from the blog; its address says so.
  await page.goto('/blog');
  await expect(page.getByRole('heading', { name: 'Insights on AI voice agents' })).toBeVisible();
  await expect(page.locator('[role="status"][aria-label="Loading blog posts"]')).toHaveCount(0);
  await expect(page.getByTestId('blog-card').filter({ hasText: title })).toHaveCount(0);
  expect((await page.request.get(`/blog/${slug}`)).status()).toBe(404);
  await page.goto(`/blog/${slug}`);
  await expect(page.getByRole('heading', { name: 'Blog Post Not Found' })).toBeVisible();
  await expect(page.getByText('Blog post not found.', { exact: false })).toBeVisible();
  await expect(page).toHaveTitle('Blog Post Not Found · Parley');

  // The console deletes it after a confirmation.
  await page.goto('/admin?section=blog');
  await row(page, title)
    .getByRole('button', { name: `Delete ${title}` })
    .click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete blog post?' });
  await expect(confirm).toContainText('Are you sure you want to delete this blog post?');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toasts(page).getByText('Blog post deleted', { exact: true })).toBeVisible();
  await expect(row(page, title)).toHaveCount(0);
  expect(await trackedEvents(page)).toContain('delete_post');
});

test('markup in a post is shown as text and never runs', async ({ page }) => {
  const run = unique();
  const title = `Markup check ${run} <script>window.__xss=1</script>`;
  const inline = '<img src=x onerror=window.__xss=1>';
  const content = [
    `A paragraph with ${inline} inside it.`,
    '<script>window.__xss=1</script>',
    'A closing paragraph,\nwith a line break.',
  ].join('\n\n');
  await signInAsAdmin(page);

  await page.goto('/blog-admin');
  await page.getByRole('button', { name: 'New Post' }).click();
  const create = page.getByRole('dialog', { name: 'Create New Blog Post' });
  await create.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  const slugInput = create.getByRole('textbox', { name: 'Slug', exact: true });
  await expect(slugInput).toHaveValue(`markup-check-${run}-script-window-xss-1-script`);
  await slugInput.fill('');
  await create.getByRole('button', { name: 'Generate', exact: true }).click();
  await expect(slugInput).toHaveValue(`markup-check-${run}-script-window-xss-1-script`);
  const slug = await slugInput.inputValue();
  await create.getByRole('textbox', { name: 'Content', exact: true }).fill(content);
  await create.getByLabel('Tags').fill(' Security , , <b>bold</b>, Security ,Testing ');
  await create.getByLabel('Status').selectOption('published');

  // Featured image: an AI image from a prompt (named provider), then an upload replaces it.
  const generateImage = create.getByRole('button', { name: 'Generate Image' });
  await expect(generateImage).toBeDisabled();
  await create.getByLabel('Generate with AI').fill('   ');
  await expect(generateImage).toBeDisabled();
  await create.getByLabel('Generate with AI').fill('A shield over a phone');
  await generateImage.click();
  await expect(toasts(page)).toContainText('AI image generated successfully using the local image generator');
  const preview = create.getByRole('img', { name: 'Current featured visual' });
  await expect(preview).toHaveAttribute('src', /^\/api\/blog\/images\/[a-f0-9]{64}\.svg$/);
  await create
    .getByLabel('Image file')
    .setInputFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: PNG });
  await expect(toasts(page).getByText('Image uploaded successfully!')).toBeVisible();
  await expect(preview).toHaveAttribute('src', /^\/api\/blog\/images\/[a-f0-9]{64}\.png$/);

  await create.getByRole('button', { name: 'Create Post' }).click();
  await expect(toasts(page).getByText('Blog post created successfully.')).toBeVisible();
  const created = row(page, title);
  await expect(created.getByText('Published', { exact: true })).toBeVisible();
  // Up to 2 tags in the admin list; the tag text was parsed (trimmed, empties and repeats dropped).
  await expect(created.getByText('Security', { exact: true })).toBeVisible();
  await expect(created.getByText('<b>bold</b>', { exact: true })).toBeVisible();
  await expect(created.getByText('+1 more')).toBeVisible();

  // On the blog the title and body read as text; nothing in them runs.
  await page.goto('/blog');
  await expect(page.getByTestId('blog-card').filter({ hasText: title })).toBeVisible();
  await page.goto(`/blog/${slug}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toHaveText(title);
  const body = page.getByTestId('post-body');
  await expect(body).toContainText(`A paragraph with ${inline} inside it.`);
  await expect(body).toContainText('<script>window.__xss=1</script>');
  await expect(body.locator('br')).toHaveCount(1);
  await expect(page.locator('main img[src="x"]')).toHaveCount(0);
  await expect(page.locator('main script:not([type="application/ld+json"])')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();

  // The JSON-LD keeps the title but cannot close its script element.
  const raw = (await page.locator('script[type="application/ld+json"]').textContent()) ?? '';
  expect(raw).not.toContain('<');
  expect(raw).toContain('\\u003c/script\\u003e');
  expect((JSON.parse(raw) as { headline: string }).headline).toBe(title);
  await expect(page).toHaveTitle(`${title} · Parley Blog`);
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();

  // Deleting from /blog-admin takes one click (the spec asks no confirmation there).
  await page.goto('/blog-admin');
  await row(page, title)
    .getByRole('button', { name: `Delete ${title}` })
    .click();
  await expect(toasts(page).getByText('Blog post deleted successfully.')).toBeVisible();
  await expect(row(page, title)).toHaveCount(0);
  expect(await trackedEvents(page)).toContain('delete_post');
  expect((await page.request.get(`/api/blog/${slug}`)).status()).toBe(404);
});
