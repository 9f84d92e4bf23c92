import http from 'node:http';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServiceApp, type ServiceInstance } from '../src/app.ts';
import { drainConnections } from '../src/drain.ts';
import { createLogger } from '../src/logger.ts';
import { createServiceMetrics } from '../src/metrics.ts';

/**
 * A replica stopping behind a Service: clients hold keep-alive connections to it, and once it
 * has left the endpoints only their new connections go to the other replica. A stop that
 * drains first (what a process does on SIGTERM) must not fail a single request.
 */
async function replica(name: string, setUp?: (app: ServiceInstance) => void): Promise<ServiceInstance> {
  const app = await buildServiceApp({
    name,
    logger: createLogger(name, 'silent'),
    metrics: createServiceMetrics(name),
    readiness: {},
  });
  app.get('/who', async () => ({ name }));
  setUp?.(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

const apps: ServiceInstance[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

describe('drainConnections', () => {
  it('lets a stopping replica answer every request on its open connections', async () => {
    const a = await replica('a');
    const b = await replica('b');
    apps.push(b);
    const port = (app: ServiceInstance) => (app.server.address() as net.AddressInfo).port;
    // The Service: a new connection goes to a replica still in the endpoints.
    let aLeft = false;
    const agent = new (class extends http.Agent {
      override createConnection() {
        return net.connect({ host: '127.0.0.1', port: port(aLeft ? b : a) });
      }
    })({ keepAlive: true, maxSockets: 4 });

    const answers = { a: 0, b: 0 };
    const failures: string[] = [];
    let stopping = false;
    const get = () =>
      new Promise<void>((resolve) => {
        const req = http.get({ agent, host: 'service', path: '/who' }, (res) => {
          let body = '';
          res.on('data', (d) => {
            body += d;
          });
          res.on('end', () => {
            if (res.statusCode === 200) answers[JSON.parse(body).name as 'a' | 'b']++;
            else failures.push(`${res.statusCode} ${body}`);
            resolve();
          });
        });
        req.on('error', (err) => {
          failures.push(String(err));
          resolve();
        });
      });
    const loops = Array.from({ length: 4 }, async () => {
      while (!stopping) await get();
    });
    while (answers.a < 200) await new Promise((r) => setTimeout(r, 10));

    aLeft = true;
    const drained = await drainConnections(a.server, 2_000);
    await a.close();
    const bBefore = answers.b;
    while (answers.b < bBefore + 200) await new Promise((r) => setTimeout(r, 10));
    stopping = true;
    await Promise.all(loops);
    agent.destroy();

    expect(failures).toEqual([]);
    // Every connection to the stopping replica closed after its next answer: none was left
    // for the close to cut.
    expect(drained.open).toBe(0);
    expect(drained.ms).toBeLessThan(2_000);
    expect(answers.b).toBeGreaterThan(0);
  });

  it('answers a request that arrives on an idle connection while the app closes, never a refusal', async () => {
    // Closing takes a moment before the server stops taking requests (avvio runs each
    // plugin's preClose in turn): a request on an idle keep-alive connection lands in it.
    let closingStarted: () => void = () => {};
    const inClosing = new Promise<void>((resolve) => {
      closingStarted = resolve;
    });
    const app = await replica('closing', (a) =>
      a.addHook('preClose', async () => {
        closingStarted();
        await new Promise((r) => setTimeout(r, 300));
      }),
    );
    const socket = net.connect({ host: '127.0.0.1', port: (app.server.address() as net.AddressInfo).port });
    let received = '';
    socket.on('data', (d) => {
      received += d;
    });
    const ask = () => socket.write('GET /who HTTP/1.1\r\nHost: service\r\n\r\n');
    ask();
    while (!received.includes('"closing"')) await new Promise((r) => setTimeout(r, 10));
    received = '';
    // The connection is idle: the drain found it so and left it to the close.
    const drained = await drainConnections(app.server, 200);
    expect(drained.open).toBe(1);
    const closed = app.close();
    await inClosing;
    ask();
    const ended = new Promise((r) => socket.once('close', r));
    await ended;
    await closed;
    expect(received.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(received).toMatch(/connection: close/i);
    expect(received).toContain('{"name":"closing"}');
  });
});
