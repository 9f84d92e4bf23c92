/**
 * The bare Node proxy of `pnpm bench gateway`: the least a Node proxy does, as a reference for
 * the gateway's CPU per request. A node:http server and one undici Pool (the gateway's own
 * undici, with its pool options) to one upstream; each request's method, path and end-to-end
 * headers go on as they came, the answer is collected and written back with its status and
 * end-to-end headers. No routing, no checks, no security headers, no metrics, no request id.
 *
 * Run as its own process (Node strips the types): node scripts/bench/_bare-proxy.ts <upstream
 * origin> <port>. It prints `listening <port>` once it accepts requests, and exits on SIGTERM.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
// Types only (erased at run time): scripts/ does not depend on undici.
import type * as Undici from '../../gateway/node_modules/undici/index.js';

const [upstream, port] = process.argv.slice(2);
if (!upstream || !port) {
  console.error('usage: node scripts/bench/_bare-proxy.ts <upstream origin> <port>');
  process.exit(2);
}
// The gateway's undici (scripts/ does not depend on it): the same version the gateway runs.
const { Pool } = createRequire(new URL('../../gateway/package.json', import.meta.url))(
  'undici',
) as typeof Undici;
const pool = new Pool(upstream, { connections: 128, pipelining: 1 });

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
]);

function forwarded(incoming: IncomingHttpHeaders): string[] {
  const out: string[] = [];
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    if (Array.isArray(value)) for (const v of value) out.push(name, v);
    else out.push(name, value);
  }
  return out;
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  let status = 502;
  const headers: Record<string, string | string[]> = {};
  pool.dispatch(
    {
      method: req.method as Undici.Dispatcher.HttpMethod,
      path: req.url ?? '/',
      headers: forwarded(req.headers),
      body: req.method === 'GET' || req.method === 'HEAD' ? null : req,
    },
    {
      onRequestStart() {},
      onResponseStart(_controller, statusCode, answer) {
        status = statusCode;
        for (const name in answer) {
          const value = answer[name];
          if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'content-length')
            headers[name] = value;
        }
      },
      onResponseData(_controller, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
        headers['content-length'] = String(body.length);
        res.writeHead(status, headers);
        res.end(body);
      },
      onResponseError(_controller, err) {
        if (res.headersSent) {
          res.destroy(err);
          return;
        }
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(err.message));
      },
    },
  );
});
// The gateway's keep-alive (Fastify's default), so clients keep their connections alike.
server.keepAliveTimeout = 72_000;
server.listen(Number(port), '127.0.0.1', () => console.log(`listening ${port}`));
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.close().then(() => process.exit(0));
});
