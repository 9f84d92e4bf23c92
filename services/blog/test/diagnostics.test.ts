import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOpenAi, registerDiagnostics } from '../src/diagnostics.ts';
import { localGenerator } from '../src/providers/index.ts';
import type { ContentGenerator } from '../src/providers/types.ts';

const openai: ContentGenerator = { ...localGenerator, provider: 'openai', model: 'gpt-4o-mini' };
const KEY = 'sk-test-0123456789';

describe('openai-api', () => {
  let server: Server;
  let baseURL: string;
  let answer = { status: 200, body: { id: 'gpt-4o-mini', object: 'model', owned_by: 'openai' } as object };
  const seen: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is a warning with the local writer', async () => {
    const r = await checkOpenAi(localGenerator, {});
    expect(r).toMatchObject({ status: 'warning', result: 'Local writer' });
  });

  it('succeeds when OpenAI accepts the key and offers the model', async () => {
    const r = await checkOpenAi(openai, { OPENAI_API_KEY: KEY }, { baseURL });
    expect(r.status).toBe('success');
    expect(r.details).toMatch(/^OpenAI accepted the key and offers gpt-4o-mini \(answered in \d+ ms\)$/);
    expect(seen).toContain(`GET /v1/models/gpt-4o-mini Bearer ${KEY}`);
  });

  it('fails on a refused key or a missing model, warns when rate limited', async () => {
    answer = {
      status: 401,
      body: { error: { message: 'Incorrect API key', type: 'invalid_request_error' } },
    };
    expect(await checkOpenAi(openai, { OPENAI_API_KEY: KEY }, { baseURL })).toMatchObject({
      status: 'error',
      result: 'Authentication failed',
    });
    answer = { status: 404, body: { error: { message: 'The model does not exist' } } };
    expect(await checkOpenAi(openai, { OPENAI_API_KEY: KEY }, { baseURL })).toMatchObject({
      status: 'error',
      result: 'Model unavailable',
    });
    answer = { status: 429, body: { error: { message: 'Rate limit' } } };
    expect(await checkOpenAi(openai, { OPENAI_API_KEY: KEY }, { baseURL })).toMatchObject({
      status: 'warning',
      result: 'Rate limited',
    });
  });

  it('fails when OpenAI cannot be reached', async () => {
    const r = await checkOpenAi(openai, { OPENAI_API_KEY: KEY }, { baseURL: 'http://127.0.0.1:1/v1' });
    expect(r).toMatchObject({ status: 'error', result: 'Unreachable' });
  });

  it('registerDiagnostics adds openai-api', async () => {
    const checks = new Map<string, () => Promise<unknown>>();
    registerDiagnostics(
      { diagnostic: (n, run) => void checks.set(n, run), config: {} },
      { generator: localGenerator },
    );
    expect([...checks.keys()]).toEqual(['openai-api']);
    expect(await checks.get('openai-api')?.()).toMatchObject({ status: 'warning' });
  });
});
