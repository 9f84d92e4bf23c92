import { describe, expect, it } from 'vitest';
import { mergeOpenApi, type OpenApiDocument, toFastifyPath, toOpenApiPath } from '../src/openapi.ts';
import type { RouteEntry } from '../src/routes.ts';
import { apiDocsContentSecurityPolicy, contentSecurityPolicy } from '../src/security.ts';

const routes: RouteEntry[] = [
  { method: 'GET', path: '/api/blog/:slug', service: 'blog', access: 'public' },
  { method: ['PATCH', 'DELETE'], path: '/api/admin/users/:id', service: 'identity', access: 'super_admin' },
  { method: 'POST', path: '/api/voice/twilio/status', service: 'voice', access: 'signed-webhook' },
  { method: 'GET', path: '/api/admin/settings', service: 'settings', access: 'admin' },
];

/** A service document as @fastify/swagger writes it, with its own parameter name and a component. */
const blog: OpenApiDocument = {
  openapi: '3.1.0',
  components: { schemas: { 'def-0': { type: 'object', properties: { title: { type: 'string' } } } } },
  paths: {
    '/api/blog/{postSlug}': {
      get: {
        parameters: [{ in: 'path', name: 'postSlug', required: true, schema: { type: 'string' } }],
        responses: {
          '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/def-0' } } } },
        },
      },
    },
    '/api/blog/not-routed': { get: { responses: {} } },
  },
};

describe('the merged API description', () => {
  const doc = mergeOpenApi({ routes, services: { blog, identity: undefined }, docsPublic: false });

  it('converts path parameters between Fastify and OpenAPI', () => {
    expect(toOpenApiPath('/api/a/:id/b/:file')).toBe('/api/a/{id}/b/{file}');
    expect(toFastifyPath('/api/a/{id}/b/{file}')).toBe('/api/a/:id/b/:file');
  });

  it("has the table's paths only, with the service's schemas under the table's parameter names", () => {
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/api/admin/settings',
        '/api/admin/users/{id}',
        '/api/blog/{slug}',
        '/api/docs',
        '/api/openapi.json',
        '/api/voice/twilio/status',
      ].sort(),
    );
    const get = doc.paths['/api/blog/{slug}']?.get as Record<string, unknown>;
    expect(get.parameters).toEqual([
      { in: 'path', name: 'slug', required: true, schema: { type: 'string' } },
    ]);
    expect(JSON.stringify(get.responses)).toContain('#/components/schemas/blog.def-0');
    expect(doc.components?.schemas?.['blog.def-0']).toBeDefined();
    expect(get['x-parley-unavailable']).toBeUndefined();
  });

  it('turns access into security requirements', () => {
    expect(doc.paths['/api/blog/{slug}']?.get?.security).toEqual([]);
    expect(doc.paths['/api/admin/users/{id}']?.delete?.security).toEqual([{ adminSession: ['super_admin'] }]);
    expect(doc.paths['/api/admin/settings']?.get?.security).toEqual([{ adminSession: [] }]);
    expect(doc.paths['/api/voice/twilio/status']?.post?.security).toEqual([{ twilioSignature: [] }]);
    expect(doc.paths['/api/openapi.json']?.get?.security).toEqual([{ adminSession: [] }]);
    const open = mergeOpenApi({ routes, services: {}, docsPublic: true });
    expect(open.paths['/api/docs']?.get?.security).toEqual([]);
  });

  it('describes a service without a document from the table, marked unavailable, with the error shape', () => {
    const patch = doc.paths['/api/admin/users/{id}']?.patch as Record<string, unknown>;
    expect(patch['x-parley-unavailable']).toBe(true);
    expect(patch.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path' })]);
    expect(patch.requestBody).toBeDefined();
    const responses = patch.responses as Record<string, unknown>;
    for (const status of ['401', '403', '413', '503', 'default'])
      expect(JSON.stringify(responses[status]), status).toContain('#/components/schemas/Error');
    expect(doc.components?.schemas?.Error).toMatchObject({ required: ['error', 'message'] });
  });
});

describe('the API docs page CSP', () => {
  it("allows exactly the page's inline scripts, by hash", () => {
    const html = '<script src="js/scalar.js"></script><script type="text/javascript">start()</script>';
    const csp = apiDocsContentSecurityPolicy(html);
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*';/);
    expect(csp.match(/sha256-/g)).toHaveLength(1);
    const scripts = /script-src [^;]*/.exec(csp)?.[0] ?? '';
    expect(scripts).not.toContain('unsafe');
    expect(contentSecurityPolicy()).not.toContain('sha256-');
  });
});
