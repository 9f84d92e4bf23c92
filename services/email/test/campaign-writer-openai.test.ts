import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyFrom } from '../src/features/writer/domain/company.ts';
import { localWriter, writerFrom } from '../src/features/writer/writer.service.ts';

/**
 * The OpenAI adapter against a local fake of the chat completions API: what it asks, how it
 * reads the answer (markup stripped, the link and sign-off kept the service's, the local plan
 * filling gaps), and what it refuses (an HTML rewrite that drops a merge field, no answer).
 */

const KEY = 'sk-test-0123456789';
const ctx = { brand: 'Parley', origin: 'https://parley.test', now: new Date('2026-11-27T10:00:00Z') };
const company = companyFrom(null, { name: 'Parley', website: null });

describe('the OpenAI campaign writer', () => {
  let server: Server;
  let baseURL: string;
  let reply: { status: number; content: unknown } = { status: 200, content: {} };
  const requests: Array<{ url: string; auth: string | undefined; body: Record<string, unknown> }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        requests.push({ url: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(raw || '{}') });
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            reply.status === 200
              ? {
                  id: 'chatcmpl-1',
                  object: 'chat.completion',
                  created: 0,
                  model: 'gpt-test',
                  choices: [
                    {
                      index: 0,
                      finish_reason: 'stop',
                      message: { role: 'assistant', content: JSON.stringify(reply.content) },
                    },
                  ],
                }
              : { error: { message: 'overloaded', type: 'server_error' } },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const openai = () => writerFrom({ OPENAI_API_KEY: KEY, EMAIL_AI_MODEL: 'gpt-test' }, { baseURL });

  it('is the local writer without a key', async () => {
    expect(await writerFrom({})).toBe(localWriter);
    expect((await openai()).provider).toBe('openai');
  });

  it('asks the configured model in JSON mode and keeps the link and sign-off the service’s', async () => {
    reply = {
      status: 200,
      content: {
        name: 'Dental demo push',
        subject: 'See your <b>AI receptionist</b> live',
        preheader: 'A 20-minute walkthrough',
        headline: 'Meet your new front desk',
        paragraphs: ['Hi there <script>x()</script>', 'Second paragraph.'],
        bullets: ['One', 2, 'Three'],
        listTitle: 'You will see:',
        ctaLabel: 'Pick a time',
        closing: ['See you soon.'],
      },
    };
    const writer = await openai();
    const copy = await writer.writeCopy({
      prompt: 'Invite clinics to a demo',
      goal: 'demo_booking',
      company,
      origin: 'https://parley.test',
    });
    const asked = requests.at(-1);
    expect(asked?.url).toBe('/v1/chat/completions');
    expect(asked?.auth).toBe(`Bearer ${KEY}`);
    expect(asked?.body).toMatchObject({ model: 'gpt-test', response_format: { type: 'json_object' } });
    expect(JSON.stringify(asked?.body)).toContain('Demo booking');
    expect(copy).toMatchObject({
      name: 'Dental demo push',
      subject: 'See your AI receptionist live',
      paragraphs: ['Hi there x()', 'Second paragraph.'],
      bullets: ['One', 'Three'],
      cta: { label: 'Pick a time' },
      signOff: 'Best regards,\nThe Parley team',
      // Left out by the model: the local plan's.
      greeting: 'Hi {{firstName|there}},',
    });
    expect(copy.cta.url).toMatch(/^https:\/\/parley\.test\/book-demo\?utm_source=email/);
  });

  it('optimizes a subject, and refuses an HTML rewrite that drops a merge field', async () => {
    const writer = await openai();
    reply = { status: 200, content: { subject: 'Last call: spring launch', changes: ['Added urgency'] } };
    expect(
      await writer.optimize({ field: 'subject', goal: 'urgency', content: 'Spring launch', context: ctx }),
    ).toEqual({
      value: 'Last call: spring launch',
      changes: ['Added urgency'],
    });
    reply = { status: 200, content: { htmlContent: '<p>Hello</p>', changes: [] } };
    await expect(
      writer.optimize({
        field: 'htmlContent',
        goal: 'clarity',
        content: '<p>Hi {{firstName}}</p><a href="{{unsubscribeUrl}}">Unsubscribe</a>',
        context: ctx,
      }),
    ).rejects.toThrow('the rewrite dropped the merge field(s) {{firstName}}, {{unsubscribeUrl}}');
  });

  it('fails when OpenAI fails (the route answers 502 "Generation failed: …")', async () => {
    reply = { status: 500, content: null };
    const writer = await openai();
    await expect(
      writer.writeCopy({ prompt: 'x', goal: 'newsletter', company, origin: 'https://parley.test' }),
    ).rejects.toThrow();
  });
});
