/**
 * The test mail sink (scripts/test/mail-sink.mjs), run here as a plain process: the
 * platform's own SMTP client (pooled, pipelining) delivers to it and every message is counted
 * once per recipient, dot-stuffed lines come back as sent, and OTLP/HTTP spans can be read by
 * trace. The heavy scenarios count recipients in it, so its counts must be exact.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '@parley/kit/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpTransport } from '../../services/email/src/features/delivery/transports/smtp.ts';
import { repoRoot } from '../lib/paths.ts';

let sink: ChildProcess;
let smtpPort = 0;
let http = '';
// biome-ignore lint/suspicious/noExplicitAny: the sink's answers are read as JSON
const read = async (path: string): Promise<any> => (await fetch(`${http}${path}`)).json();

beforeAll(async () => {
  smtpPort = await freePort();
  const httpPort = await freePort(new Set([smtpPort]));
  http = `http://127.0.0.1:${httpPort}`;
  sink = spawn(process.execPath, [join(repoRoot, 'scripts/test/mail-sink.mjs')], {
    env: { ...process.env, SMTP_PORT: String(smtpPort), HTTP_PORT: String(httpPort) },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      if ((await fetch(`${http}/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error('the sink did not answer');
    await new Promise((r) => setTimeout(r, 100));
  }
});

afterAll(() => {
  sink?.kill();
});

const message = (to: string, subject: string, body: string) =>
  Buffer.from(
    [
      `From: sender@example.com`,
      `To: ${to}`,
      `Subject: ${subject}`,
      'Message-ID: <m@example.com>',
      '',
      body,
      '',
    ].join('\r\n'),
  );

describe('the sink', () => {
  it('counts every message once per recipient, over pooled pipelining connections', async () => {
    const smtp = new SmtpTransport({ host: '127.0.0.1', port: smtpPort, ignoreTLS: true, maxConnections: 3 });
    const sends = Array.from({ length: 60 }, (_, i) =>
      smtp.send(
        { from: 'sender@example.com', to: [`r${i}@example.com`] },
        message(`r${i}@example.com`, `n ${i}`, `line\r\n.starts with a dot\r\n..two dots`),
      ),
    );
    sends.push(
      smtp.send(
        { from: 'sender@example.com', to: ['r0@example.com', 'Cc@Example.com'] },
        message('r0@example.com', 'second', 'again'),
      ),
    );
    await Promise.all(sends);
    await smtp.close();
    const stats = await read('/stats');
    expect(stats).toMatchObject({
      messages: 61,
      deliveries: 62,
      recipients: 61,
      duplicates: 1,
      bareLineBreaks: 0,
    });
    expect(stats.connections.total).toBeLessThanOrEqual(3);
    const { counts } = await read('/recipients');
    expect(counts['r0@example.com']).toBe(2);
    expect(counts['cc@example.com']).toBe(1);
    expect(counts['r59@example.com']).toBe(1);
    const { messages } = await read('/messages?to=r7@example.com');
    expect(messages).toHaveLength(1);
    expect(messages[0].subject).toBe('n 7');
    expect(messages[0].raw).toContain('\r\n.starts with a dot\r\n..two dots\r\n');
    await fetch(`${http}/messages`, { method: 'DELETE' });
    expect(await read('/stats')).toMatchObject({ messages: 0, recipients: 0 });
  });

  it('keeps OTLP/HTTP spans, read by trace', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const span = (name: string, spanId: string, parentSpanId = '') => ({
      traceId,
      spanId,
      parentSpanId,
      name,
      kind: 2,
    });
    const res = await fetch(`${http}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        resourceSpans: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'gateway' } }] },
            scopeSpans: [{ spans: [span('POST /api/bookings', 'b7ad6b7169203331')] }],
          },
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'booking' } }] },
            scopeSpans: [{ spans: [span('POST /api/bookings', '00f067aa0ba902b7', 'b7ad6b7169203331')] }],
          },
        ],
      }),
    });
    expect(res.status).toBe(200);
    const { spans } = await read(`/spans?traceId=${traceId}`);
    expect(spans.map((s: { service: string }) => s.service)).toEqual(['gateway', 'booking']);
    expect(spans[1].parentSpanId).toBe('b7ad6b7169203331');
    expect((await fetch(`${http}/v1/traces`, { method: 'POST', body: 'not json' })).status).toBe(400);
  });
});
