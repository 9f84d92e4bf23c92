import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A website served locally for the crawl tests: the Acme Dental fixture (test/fixtures/site)
 * plus misbehaving paths: redirect chains and redirects anywhere, oversized bodies (declared
 * or streamed), answers that never come, wrong content types, 404.
 */
export interface FixtureSite {
  port: number;
  origin: string;
  /** Requests per path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

const file = (name: string) => readFileSync(new URL(`../fixtures/site/${name}`, import.meta.url), 'utf8');
const page = (title: string) =>
  `<!doctype html><html><head><title>${title} · Acme Dental</title></head><body><h1>${title}</h1><p>Gentle family dental care.</p></body></html>`;

export async function startFixtureSite(): Promise<FixtureSite> {
  const hits = new Map<string, number>();
  const sockets = new Set<Socket>();
  const send = (res: ServerResponse, type: string, body: string, status = 200) => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const redirect = /^\/redirect\/(\d+)$/.exec(url.pathname);
    if (redirect) {
      const n = Number(redirect[1]);
      res.writeHead(302, { location: n > 1 ? `/redirect/${n - 1}` : '/' });
      return res.end();
    }
    switch (url.pathname) {
      case '/':
        return send(res, 'text/html; charset=utf-8', file('index.html'));
      case '/about':
        return send(res, 'text/html; charset=utf-8', file('about.html'));
      case '/services':
      case '/contact':
        return send(res, 'text/html', page(url.pathname.slice(1)));
      case '/styles/main.css':
        return send(res, 'text/css', file('main.css'));
      case '/styles/extra.css':
        return send(res, 'text/css; charset=utf-8', file('extra.css'));
      case '/to':
        res.writeHead(302, { location: url.searchParams.get('location') ?? '/' });
        return res.end();
      case '/big':
        return send(res, 'text/html', `<html><body>${'x'.repeat(3 * 1024 * 1024)}</body></html>`);
      case '/big-stream': {
        // No Content-Length: only counting the bytes can stop it.
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = 'y'.repeat(64 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < 3 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => {});
        return pump();
      }
      case '/slow':
        return; // never answers
      case '/slow-body':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html><body>');
        return; // the body never ends
      case '/image':
        return send(res, 'image/png', 'PNG');
      case '/no-type':
        res.writeHead(200);
        return res.end('<html></html>');
      default:
        return send(res, 'text/html', page('Not found'), 404);
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
