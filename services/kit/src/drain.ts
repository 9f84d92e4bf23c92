import type { Server } from 'node:http';

/** How long a stopping process keeps serving its open connections (see drainConnections). */
export const SHUTDOWN_DRAIN_MS = 5_000;

/**
 * The first step of a process's graceful stop behind a Kubernetes Service (or any load
 * balancer), before the server closes: it keeps serving, but every answer from now on closes
 * its connection, so each client's next request opens a new one, which lands on another
 * replica (by SIGTERM this pod has left the Service's endpoints: the chart's preStop wait).
 * Resolves once no connection is open, or after `maxMs` (a quiet client's idle keep-alive
 * connection). Closing the server at once instead would close every idle connection under
 * requests their clients may be sending at that moment, which a client retries only for a GET.
 * A request that still arrives while the app closes is answered (services/kit/src/app.ts).
 */
export async function drainConnections(
  server: Server,
  maxMs = SHUTDOWN_DRAIN_MS,
): Promise<{ open: number; ms: number }> {
  const started = Date.now();
  // First among the request listeners: the header is set before any handler answers.
  server.prependListener('request', (_request, response) => {
    if (!response.headersSent) response.setHeader('connection', 'close');
  });
  for (;;) {
    const open = await new Promise<number>((resolve) =>
      server.getConnections((err, n) => resolve(err ? 0 : n)),
    );
    const ms = Date.now() - started;
    if (open === 0 || ms >= maxMs || !server.listening) return { open, ms };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
