import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/local/ports.ts';
import { createTestDatabase } from '../src/testing/database.ts';

/**
 * A service started as its own process (its `main.ts`, as in Kubernetes) exports its spans to
 * OTEL_EXPORTER_OTLP_ENDPOINT. The receiver here is a plain HTTP server speaking OTLP/HTTP JSON.
 */
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ spans: Array<{ name: string; traceId: string; kind: number }> }>;
  }>;
}

const received: OtlpExport[] = [];
let receiver: Server;
let endpoint: string;
let child: ChildProcess;
let base: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') received.push(JSON.parse(Buffer.concat(chunks).toString()) as OtlpExport);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const addr = receiver.address();
  endpoint = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const bookingDir = fileURLToPath(new URL('../../booking', import.meta.url));
  child = spawn(process.execPath, ['--import', 'tsx', join(bookingDir, 'src/main.ts')], {
    cwd: bookingDir,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: await createTestDatabase('telemetry_process'),
      NATS_URL: process.env.NATS_URL,
      INTERNAL_AUTH_SECRET: randomBytes(32).toString('hex'),
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      LOG_LEVEL: 'error',
    },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`${base}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('booking did not become ready');
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
  }
  await new Promise((r) => receiver?.close(r));
});

describe('a service in its own process', () => {
  it('exports its spans over OTLP, named after the service, continuing the caller’s trace', async () => {
    const traceId = randomBytes(16).toString('hex');
    const date = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const res = await fetch(`${base}/api/bookings/available?date=${date}`, {
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    });
    expect(res.status).toBe(200);
    // A graceful stop flushes the batch (SIGTERM → stop → telemetry shutdown).
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));

    const resources = received.flatMap((e) => e.resourceSpans);
    const names = resources.map(
      (r) => r.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue,
    );
    expect(names).toContain('booking');
    const spans = resources.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    const server = spans.find((s) => s.name === 'GET /api/bookings/available');
    expect(server, JSON.stringify(spans.map((s) => s.name))).toBeDefined();
    expect(server?.traceId).toBe(traceId);
  }, 60_000);
});
