import multipart from '@fastify/multipart';
import {
  articleSlug,
  BlogIdParams,
  BlogPost,
  BlogPostInput,
  BlogPostList,
  ErrorBody,
  GenerateBlogBody,
  GenerateBlogResponse,
  GenerateImageBody,
  GenerateImageResponse,
  SuccessResponse,
  UploadImageResponse,
} from '@parley/contracts';
import { badRequest, conflict, HttpError, notFound, type ServiceInstance } from '@parley/kit';
import { imagePath, sniffImage } from '../domain/images.ts';
import { applyPostInput } from '../domain/post-rules.ts';
import type { ImageData } from '../providers/index.ts';
import { DuplicateSlugError } from '../repo/blog.repository.ts';
import type { BlogRouteContext } from './context.ts';

const DUPLICATE_SLUG = 'A post with this slug already exists. Please choose a different slug.';
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
/** AI calls cost money (OpenAI) or CPU: a budget per admin. */
const AI_LIMIT = {
  rateLimit: {
    max: 20,
    timeWindow: '1 minute',
    keyGenerator: (r: { admin?: { adminId: string }; ip: string }) => r.admin?.adminId ?? r.ip,
  },
};

/** Authoring (admin): posts, AI writing, images. */
export async function adminRoutes(app: ServiceInstance, ctx: BlogRouteContext) {
  const { repo, cache, generator, settings, deps, now } = ctx;

  async function storeImage(image: ImageData, source: 'upload' | 'local' | 'openai'): Promise<string> {
    return imagePath(await repo.saveImage(image.bytes, image.type, source), image.type);
  }
  const afterWrite = () => cache.invalidate();

  app.get(
    '/api/blog/all',
    { onRequest: deps.auth.admin, schema: { response: { 200: BlogPostList, ...errors } } },
    async () => repo.listAll(),
  );

  app.post(
    '/api/blog',
    { onRequest: deps.auth.admin, schema: { body: BlogPostInput, response: { 201: BlogPost, ...errors } } },
    async (request, reply) => {
      const fields = applyPostInput(request.body, null, now());
      if (!fields.ok) throw badRequest(fields.message);
      try {
        const post = await repo.create(fields.value);
        afterWrite();
        request.log.info({ postId: post.id, by: request.admin?.adminId }, 'blog post created');
        return reply.code(201).send(post);
      } catch (err) {
        if (err instanceof DuplicateSlugError) throw conflict(DUPLICATE_SLUG);
        throw err;
      }
    },
  );

  app.get(
    '/api/admin/blog/:id',
    { onRequest: deps.auth.admin, schema: { params: BlogIdParams, response: { 200: BlogPost, ...errors } } },
    async (request) => {
      const post = await repo.find(request.params.id);
      if (!post) throw notFound('Blog post not found');
      return post;
    },
  );

  app.patch(
    '/api/admin/blog/:id',
    {
      onRequest: deps.auth.admin,
      schema: { params: BlogIdParams, body: BlogPostInput, response: { 200: BlogPost, ...errors } },
    },
    async (request) => {
      try {
        const result = await repo.update(request.params.id, (current) => {
          const next = applyPostInput(request.body, current, now());
          return next.ok ? next.value : badRequest(next.message);
        });
        if (result === null) throw notFound('Blog post not found');
        if (result instanceof Error) throw result;
        afterWrite();
        return result;
      } catch (err) {
        if (err instanceof DuplicateSlugError) throw conflict(DUPLICATE_SLUG);
        throw err;
      }
    },
  );

  app.delete(
    '/api/admin/blog/:id',
    {
      onRequest: deps.auth.admin,
      schema: { params: BlogIdParams, response: { 200: SuccessResponse, ...errors } },
    },
    async (request) => {
      if (!(await repo.delete(request.params.id))) throw notFound('Blog post not found');
      afterWrite();
      return { success: true as const };
    },
  );

  app.post(
    '/api/admin/generate-blog',
    {
      onRequest: deps.auth.admin,
      config: AI_LIMIT,
      schema: { body: GenerateBlogBody, response: { 200: GenerateBlogResponse, ...errors } },
    },
    async (request) => {
      const topic = request.body?.topic?.trim();
      if (!topic) throw badRequest('Please enter a topic or description for the article');
      const article = await generator.writeArticle(topic).catch((err) => {
        request.log.error({ err, provider: generator.provider }, 'article generation failed');
        throw new HttpError(502, 'The writing service did not answer. Please try again.');
      });
      let featuredImage: string | null = null;
      if (request.body.generateImage ?? true) {
        const image = await generator.makeImage(article.title).catch((err) => {
          request.log.warn({ err }, 'featured image generation failed; the post has none');
          return null;
        });
        if (image) featuredImage = await storeImage(image, generator.provider);
      }
      return {
        success: true as const,
        provider: generator.provider,
        post: { ...article, slug: articleSlug(article.title), featuredImage },
      };
    },
  );

  app.post(
    '/api/admin/generate-image',
    {
      onRequest: deps.auth.admin,
      config: AI_LIMIT,
      schema: { body: GenerateImageBody, response: { 200: GenerateImageResponse, ...errors } },
    },
    async (request) => {
      const prompt = request.body?.prompt?.trim();
      if (!prompt) throw badRequest('Please enter a prompt for the image');
      const image = await generator.makeImage(prompt).catch((err) => {
        request.log.error({ err, provider: generator.provider }, 'image generation failed');
        throw new HttpError(502, 'Failed to generate image');
      });
      return {
        success: true as const,
        imageUrl: await storeImage(image, generator.provider),
        provider: generator.provider,
      };
    },
  );

  await app.register(async (uploads) => {
    await uploads.register(multipart, {
      limits: { fileSize: settings.imageMaxBytes, files: 1, fields: 5, parts: 6 },
    });
    uploads.post(
      '/api/admin/upload-image',
      { onRequest: deps.auth.admin, schema: { response: { 201: UploadImageResponse, ...errors } } },
      async (request, reply) => {
        if (!request.isMultipart())
          throw badRequest('Send the image as multipart/form-data in the field "image"');
        const file = await request.file();
        if (file?.fieldname !== 'image') throw badRequest('Send the image in the field "image"');
        let bytes: Buffer;
        try {
          bytes = await file.toBuffer();
        } catch {
          throw new HttpError(
            413,
            `Image is too large (max ${Math.round(settings.imageMaxBytes / 1024 / 1024)} MB)`,
          );
        }
        const type = sniffImage(bytes);
        if (!type) throw new HttpError(415, 'Only PNG, JPEG, GIF and WebP images are accepted');
        return reply.code(201).send({ imageUrl: await storeImage({ bytes, type }, 'upload') });
      },
    );
  });
}
