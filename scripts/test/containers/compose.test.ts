/**
 * docker/compose.yaml runs the whole platform from the images: the gateway serves the site and
 * the blog API, the first admin signs in, a visitor books a demo, and the booking's confirmation
 * reaches the local mailbox (over NATS, between containers); speech and a generated blog image
 * exercise the packages that sit beside the bundles (WASM, native addons).
 */

import { freePort } from '@parley/kit/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeCommand, dependencyImages, sh, TAG, waitFor } from './docker.ts';

const project = `parleyct${process.pid}`;
const [cmd, base] = composeCommand();
let url = '';
let env: NodeJS.ProcessEnv = {};
const compose = (args: string[], timeoutMs = 300_000) =>
  sh(cmd, [...base, '-f', 'docker/compose.yaml', '-p', project, ...args], { env, timeoutMs });
const ADMIN = { email: 'admin@parley.compose.test', password: 'compose-admin-password-1' };

beforeAll(async () => {
  const deps = dependencyImages();
  const httpPort = await freePort();
  env = {
    POSTGRES_IMAGE: deps.postgres,
    NATS_IMAGE: deps.nats,
    PARLEY_TAG: TAG,
    PARLEY_HTTP_PORT: String(httpPort),
    PARLEY_PG_PORT: String(await freePort()),
    PARLEY_NATS_PORT: String(await freePort()),
    PARLEY_ADMIN_EMAIL: ADMIN.email,
    PARLEY_ADMIN_PASSWORD: ADMIN.password,
    PUBLIC_ORIGIN: `http://127.0.0.1:${httpPort}`,
  };
  url = `http://127.0.0.1:${httpPort}`;
  const t0 = Date.now();
  const up = compose(['up', '-d', '--no-build']);
  expect(up.code, up.err).toBe(0);
  await waitFor(
    'the gateway through compose',
    async () => ((await fetch(`${url}/health/ready`)).ok ? true : undefined),
    180_000,
  ).catch((err) => {
    throw new Error(`${err}\n${compose(['ps']).out}\n${compose(['logs', '--tail', '20']).out.slice(-6000)}`);
  });
  console.log(`compose: the platform answered ${Date.now() - t0} ms after \`up\``);
}, 400_000);

afterAll(() => {
  compose(['down', '-v', '--remove-orphans'], 180_000);
});

describe('the platform under docker compose', () => {
  let cookie = '';

  it('serves the site and the blog API through the gateway', async () => {
    const home = await fetch(`${url}/`);
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(/<div id="root"[^>]*>/.test(html), 'the page has the app root').toBe(true);
    expect(html).toMatch(/<title>Parley/);
    const blog = await fetch(`${url}/api/blog`);
    expect(blog.status).toBe(200);
    expect(Array.isArray(await blog.json())).toBe(true);
  });

  it('signs the first admin in', async () => {
    const res = await fetch(`${url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify(ADMIN),
    });
    expect(res.status).toBe(200);
    cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/=/);
    const me = await fetch(`${url}/api/admin/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
  });

  it('books a demo, and the confirmation reaches the local mailbox', async () => {
    let slot: string | undefined;
    for (let day = 1; day <= 14 && !slot; day++) {
      const date = new Date(Date.now() + day * 86_400_000).toISOString().slice(0, 10);
      const res = await fetch(`${url}/api/bookings/available?date=${date}`);
      slot = ((await res.json()) as { availableSlots: string[] }).availableSlots[0];
    }
    expect(slot).toBeDefined();
    const email = `visitor-${process.pid}@example.com`;
    const booked = await fetch(`${url}/api/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ name: 'Compose Visitor', email, timeSlot: slot }),
    });
    expect(booked.status).toBe(201);
    const mail = await waitFor(
      'the booking confirmation in the local mailbox',
      async () => {
        const res = await fetch(`${url}/api/admin/email/outbox`, { headers: { cookie } });
        const { items } = (await res.json()) as {
          items: Array<{ to: string; kind: string; hasCalendar: boolean }>;
        };
        return items.find((m) => m.to === email && m.kind === 'booking_confirmation');
      },
      60_000,
    );
    expect(mail.hasCalendar).toBe(true);
  });

  it('speaks (eSpeak NG and LAME as WASM) and draws a blog image (resvg)', async () => {
    const speech = await fetch(`${url}/api/voice/text-to-speech`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ text: 'Hello from the compose test.' }),
    });
    expect(speech.status).toBe(200);
    expect(speech.headers.get('content-type')).toContain('audio/mpeg');
    expect((await speech.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    const image = await fetch(`${url}/api/admin/generate-image`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url, cookie },
      body: JSON.stringify({ prompt: 'A phone agent answering calls' }),
    });
    expect(image.status).toBe(200);
    const { imageUrl } = (await image.json()) as { imageUrl: string };
    const png = await fetch(new URL(imageUrl, url));
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toMatch(/image\/(png|svg)/);
  });
});
