// A mail relay and OpenTelemetry collector stand-in for tests (node only, no shell, no npm
// packages). The Kubernetes tier runs it inside the cluster from a Parley image
// (scripts/test/k8s/harness.ts mounts this file from a ConfigMap); the browser suite runs it
// as a local process (web/e2e/support/mail-sink.ts).
//
// SMTP on SMTP_PORT (default 2525): EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT, with
// PIPELINING, 8BITMIME and SIZE; AUTH PLAIN takes any credentials (a relay with a login, on
// loopback: the platform sends the password there without TLS); no TLS. Every message is
// accepted and counted per recipient.
// HTTP on HTTP_PORT (default 8025), read through the API server's service proxy:
//   GET    /health                      200
//   GET    /stats                       mail totals: messages, deliveries (recipients of all
//                                       messages), distinct recipients, recipients that got
//                                       more than one message, messages with a bare CR or LF;
//                                       and the spans received
//   GET    /recipients                  { counts: { address: messages } }
//   GET    /messages?to=ADDRESS&limit=N the messages to ADDRESS (all when omitted), newest last,
//                                       each with its envelope, headers and raw text (the raw
//                                       text of the first RAW_LIMIT_BYTES only)
//   DELETE /messages                    forget every message
//   POST   /v1/traces                   OTLP/HTTP in JSON (what the platform's exporter sends)
//   GET    /spans?traceId=ID            the spans received of that trace (the last MAX_SPANS
//                                       are kept): service, name, kind, ids, links
import http from 'node:http';
import net from 'node:net';

const SMTP_PORT = Number(process.env.SMTP_PORT ?? 2525);
const HTTP_PORT = Number(process.env.HTTP_PORT ?? 8025);
const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;
// Raw text is kept while the total stays under this; past it only envelopes and headers are.
const RAW_LIMIT_BYTES = Number(process.env.RAW_LIMIT_BYTES ?? 64 * 1024 * 1024);

let messages = [];
let counts = new Map();
let rawBytes = 0;
let bareLineBreaks = 0;
let connectionsOpen = 0;
const MAX_SPANS = 200_000;
let spans = [];
let spansTotal = 0;
let connectionsTotal = 0;

const TERMINATOR = Buffer.from('\r\n.\r\n');
const EMPTY_DATA = Buffer.from('.\r\n');

/** The header block of a message, unfolded, as [name, value] pairs. */
function headersOf(raw) {
  const end = raw.indexOf('\r\n\r\n');
  const block = end < 0 ? raw : raw.slice(0, end);
  const out = [];
  for (const line of block.split('\r\n')) {
    if (/^[ \t]/.test(line) && out.length) out[out.length - 1][1] += ` ${line.trim()}`;
    else {
      const colon = line.indexOf(':');
      if (colon > 0) out.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
    }
  }
  return out;
}

function deliver(envelope, data) {
  // Dot-unstuffing (RFC 5321 4.5.2): a line that starts with "." lost one.
  const text = data
    .toString('latin1')
    .replace(/^\.\./, '.')
    .replace(/\r\n\.\./g, '\r\n.');
  const bare = /\r(?!\n)|(?<!\r)\n/.test(text);
  if (bare) bareLineBreaks++;
  const headers = headersOf(text);
  const header = (name) => headers.find(([n]) => n.toLowerCase() === name)?.[1] ?? null;
  const keepRaw = rawBytes + text.length <= RAW_LIMIT_BYTES;
  if (keepRaw) rawBytes += text.length;
  messages.push({
    id: messages.length + 1,
    receivedAt: new Date().toISOString(),
    from: envelope.from,
    to: envelope.to,
    size: text.length,
    subject: header('subject'),
    messageId: header('message-id'),
    bareLineBreaks: bare,
    headers,
    raw: keepRaw ? text : null,
  });
  for (const to of envelope.to) counts.set(to, (counts.get(to) ?? 0) + 1);
}

const address = (arg) => {
  const m = /^<([^>]*)>/.exec(arg.trim());
  return m ? m[1].toLowerCase() : null;
};

function session(socket) {
  connectionsOpen++;
  connectionsTotal++;
  let buf = Buffer.alloc(0);
  let inData = false;
  let envelope = null;
  const reply = (text) => socket.write(`${text}\r\n`);

  function command(line) {
    const verb = line.slice(0, 4).toUpperCase();
    const arg = line.slice(4);
    switch (verb) {
      case 'EHLO':
        envelope = null;
        return reply(
          `250-parley-sink\r\n250-PIPELINING\r\n250-8BITMIME\r\n250-AUTH PLAIN\r\n250-SIZE ${MAX_MESSAGE_BYTES}\r\n250 SMTPUTF8`,
        );
      case 'HELO':
        envelope = null;
        return reply('250 parley-sink');
      case 'MAIL': {
        const from = /^ FROM:/i.test(arg) ? address(arg.slice(6)) : null;
        if (from === null) return reply('501 5.5.4 Syntax: MAIL FROM:<address>');
        envelope = { from, to: [] };
        return reply('250 2.1.0 OK');
      }
      case 'RCPT': {
        if (!envelope) return reply('503 5.5.1 MAIL first');
        const to = /^ TO:/i.test(arg) ? address(arg.slice(4)) : null;
        if (!to) return reply('501 5.5.4 Syntax: RCPT TO:<address>');
        envelope.to.push(to);
        return reply('250 2.1.5 OK');
      }
      case 'DATA':
        if (!envelope?.to.length) return reply('503 5.5.1 RCPT first');
        inData = true;
        return reply('354 End data with <CR><LF>.<CR><LF>');
      case 'AUTH':
        return /^ PLAIN \S+$/i.test(arg)
          ? reply('235 2.7.0 Authentication successful')
          : reply('504 5.5.4 Only AUTH PLAIN with its initial response');
      case 'RSET':
        envelope = null;
        return reply('250 2.0.0 OK');
      case 'NOOP':
        return reply('250 2.0.0 OK');
      case 'VRFY':
        return reply('252 2.1.5 Cannot verify');
      case 'QUIT':
        reply('221 2.0.0 Bye');
        return socket.end();
      default:
        return reply('502 5.5.2 Command not implemented');
    }
  }

  socket.on('data', (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    for (;;) {
      if (inData) {
        let bodyEnd;
        let next;
        if (buf.subarray(0, 3).equals(EMPTY_DATA)) {
          bodyEnd = 0;
          next = 3;
        } else {
          const i = buf.indexOf(TERMINATOR);
          if (i < 0) {
            if (buf.length > MAX_MESSAGE_BYTES) {
              reply('552 5.3.4 Message too big');
              socket.destroy();
            }
            return;
          }
          bodyEnd = i + 2;
          next = i + TERMINATOR.length;
        }
        const data = buf.subarray(0, bodyEnd);
        buf = buf.subarray(next);
        inData = false;
        deliver(envelope, data);
        envelope = null;
        reply(`250 2.0.0 OK queued as ${messages.length}`);
        continue;
      }
      const i = buf.indexOf(0x0a);
      if (i < 0) {
        if (buf.length > 4096) socket.destroy();
        return;
      }
      const line = buf.subarray(0, i).toString('latin1').replace(/\r$/, '');
      buf = buf.subarray(i + 1);
      command(line);
    }
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    connectionsOpen--;
  });
  reply('220 parley-sink ESMTP');
}

function stats() {
  let deliveries = 0;
  let duplicates = 0;
  for (const n of counts.values()) {
    deliveries += n;
    if (n > 1) duplicates++;
  }
  return {
    messages: messages.length,
    deliveries,
    recipients: counts.size,
    duplicates,
    bareLineBreaks,
    connections: { open: connectionsOpen, total: connectionsTotal },
    spans: spansTotal,
  };
}

/** Keeps the spans of an OTLP/HTTP JSON export request (ExportTraceServiceRequest). */
function receiveSpans(body) {
  for (const rs of body.resourceSpans ?? []) {
    const service =
      (rs.resource?.attributes ?? []).find((a) => a.key === 'service.name')?.value?.stringValue ?? null;
    for (const ss of rs.scopeSpans ?? [])
      for (const span of ss.spans ?? []) {
        spansTotal++;
        spans.push({
          service,
          name: span.name,
          kind: span.kind,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || null,
          links: (span.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
        });
      }
  }
  if (spans.length > MAX_SPANS) spans = spans.slice(-MAX_SPANS);
}

function json(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

http
  .createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sink');
    if (req.method === 'GET' && url.pathname === '/health') return json(res, 200, { ok: true });
    if (req.method === 'GET' && url.pathname === '/stats') return json(res, 200, stats());
    if (req.method === 'GET' && url.pathname === '/recipients')
      return json(res, 200, { counts: Object.fromEntries(counts) });
    if (req.method === 'GET' && url.pathname === '/messages') {
      const to = url.searchParams.get('to')?.toLowerCase();
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const found = to ? messages.filter((m) => m.to.includes(to)) : messages;
      return json(res, 200, { total: found.length, messages: found.slice(-limit) });
    }
    if (req.method === 'POST' && url.pathname === '/v1/traces') {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        try {
          receiveSpans(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          json(res, 200, {});
        } catch (err) {
          json(res, 400, { error: 'Bad Request', message: String(err) });
        }
      });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/spans') {
      const traceId = url.searchParams.get('traceId');
      return json(res, 200, { spans: spans.filter((s) => !traceId || s.traceId === traceId) });
    }
    if (req.method === 'DELETE' && url.pathname === '/messages') {
      messages = [];
      counts = new Map();
      rawBytes = 0;
      bareLineBreaks = 0;
      return json(res, 200, { ok: true });
    }
    json(res, 404, { error: 'Not Found', message: `${req.method} ${url.pathname}` });
  })
  .listen(HTTP_PORT, () => console.log(`sink: HTTP on ${HTTP_PORT}`));

net.createServer(session).listen(SMTP_PORT, () => console.log(`sink: SMTP on ${SMTP_PORT}`));
process.on('SIGTERM', () => process.exit(0));
