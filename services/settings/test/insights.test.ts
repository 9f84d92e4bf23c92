import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@parley/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ActivityFacts, NO_ACTIVITY } from '../src/domain/feature-facts.ts';
import { type InsightsWriter, openAiInsightsWriter } from '../src/providers/insights-ai.ts';
import type { ActivityRepository } from '../src/repo/activity.repository.ts';
import { FeatureDiscoveryService } from '../src/services/feature-discovery.service.ts';

/**
 * Insights: the local rules' words, OpenAI's phrasing of the same steps (against a local
 * server that answers as the Chat Completions API does), and the fallback when OpenAI fails.
 */

const logger = createLogger('insights-test', 'silent');
const now = new Date('2026-11-20T15:00:00Z');
const facts: ActivityFacts = {
  ...NO_ACTIVITY,
  audience: { addressBooks: 1, contacts: 300, lastImportAt: null },
  posts: { published: 2, publishedRecently: 2, lastPublishedAt: now, withoutNewsletter: 2 },
};
const repo = {
  facts: async () => facts,
  recent: async () => ({ entries: [], bookNames: new Map() }),
} as unknown as ActivityRepository;

let server: Server;
let baseURL: string;
const requests: Array<{ path: string; body: Record<string, unknown> }> = [];
let answer: (body: Record<string, unknown>) => { status: number; content?: string } = () => ({ status: 200 });

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      requests.push({ path: req.url ?? '', body });
      const a = answer(body);
      res.writeHead(a.status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          a.status === 200
            ? {
                id: 'chatcmpl-1',
                object: 'chat.completion',
                created: 0,
                model: body.model,
                choices: [
                  {
                    index: 0,
                    finish_reason: 'stop',
                    message: { role: 'assistant', content: a.content ?? '{}' },
                  },
                ],
              }
            : { error: { message: 'boom', type: 'server_error' } },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const service = (writer: InsightsWriter | null) =>
  new FeatureDiscoveryService({ repo, writer, logger, now: () => now });

describe('insights', () => {
  it('without OpenAI: the local rules, labelled local', async () => {
    const r = await service(null).insights();
    expect(r.provider).toBe('local');
    expect(r.insights.summary).toContain('2 published posts and 300 contacts in 1 address book');
    expect(r.insights.nextSteps[0]).toMatchObject({
      featureId: 'email-campaigns',
      actionUrl: '/admin/email',
    });
    expect(r.generatedAt).toBe(now.toISOString());
  });

  it("with OpenAI: its words for the rules' steps, in their order, each still with its screen", async () => {
    requests.length = 0;
    answer = () => ({
      status: 200,
      content: JSON.stringify({
        summary: '  Your audience of 300 is ready,\n and two posts wait. ',
        nextSteps: ['Email your 300 contacts today.', 'Send your two posts as a newsletter.'],
      }),
    });
    const writer = openAiInsightsWriter({ apiKey: 'sk-test-0123456789', model: 'gpt-4o-mini', baseURL });
    const local = await service(null).insights();
    const r = await service(writer).insights();
    expect(r.provider).toBe('openai');
    expect(r.insights.summary).toBe('Your audience of 300 is ready, and two posts wait.');
    expect(r.insights.nextSteps.map((s) => s.step)).toEqual([
      'Email your 300 contacts today.',
      'Send your two posts as a newsletter.',
      // The model gave two steps for three: the third keeps the local words.
      local.insights.nextSteps[2]?.step,
    ]);
    expect(r.insights.nextSteps.map((s) => s.actionUrl)).toEqual(
      local.insights.nextSteps.map((s) => s.actionUrl),
    );
    expect(requests).toHaveLength(1);
    expect(requests[0]?.path).toBe('/v1/chat/completions');
    expect(requests[0]?.body).toMatchObject({
      model: 'gpt-4o-mini',
      response_format: { type: 'json_object' },
    });
    // The facts travel, so the model has numbers to keep.
    const messages = (requests[0]?.body.messages ?? []) as Array<{ role: string; content: string }>;
    const user = messages[1];
    expect(JSON.parse(user?.content ?? '{}').facts.audience.contacts).toBe(300);
  });

  it('phrases the same facts once per 10 minutes', async () => {
    requests.length = 0;
    answer = () => ({ status: 200, content: JSON.stringify({ summary: 'Once.', nextSteps: [] }) });
    const s = service(openAiInsightsWriter({ apiKey: 'sk-test-0123456789', model: 'gpt-4o-mini', baseURL }));
    const [a, b] = await Promise.all([s.insights(), s.insights()]);
    const c = await s.insights();
    expect([a, b, c].map((x) => x.insights.summary)).toEqual(['Once.', 'Once.', 'Once.']);
    expect(requests).toHaveLength(1);
  });

  it('OpenAI failing: the local words stand, labelled local, and the next call asks again', async () => {
    requests.length = 0;
    answer = () => ({ status: 400 });
    const s = service(openAiInsightsWriter({ apiKey: 'sk-test-0123456789', model: 'gpt-4o-mini', baseURL }));
    const r = await s.insights();
    expect(r.provider).toBe('local');
    expect(r.insights).toEqual((await service(null).insights()).insights);
    answer = () => ({ status: 200, content: JSON.stringify({ summary: 'Back.', nextSteps: [] }) });
    expect((await s.insights()).provider).toBe('openai');
    expect(requests).toHaveLength(2);
  });
});
