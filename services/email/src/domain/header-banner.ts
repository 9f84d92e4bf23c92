import { crc32, deflateSync } from 'node:zlib';
import type { CampaignGoal } from '@parley/contracts';

/**
 * The header images of generated campaigns: one 1200×400 PNG per goal (shown 600×200, sharp on
 * high-density screens), a diagonal gradient in the goal's colours with a soft glow, sound
 * rings and a voice waveform (what the product does). PNG, not SVG: Gmail, Outlook and Apple
 * Mail all show PNG, none shows SVG reliably. No words are drawn into the picture: the
 * headline is live text under it, readable with images off and by screen readers.
 *
 * The pictures are made by code (signed-distance shapes, so every edge is anti-aliased) and
 * written once into the web bundle's public folder (`pnpm exec tsx
 * scripts/email-header-banners.ts`), served by the gateway at
 * `/email/headers/<goal>.png` on the public origin.
 */

export const HEADER_WIDTH = 1200;
export const HEADER_HEIGHT = 400;
/** Where the banners are served on the public origin. */
export const headerImagePath = (goal: CampaignGoal) => `/email/headers/${goal}.png`;

type Rgb = [number, number, number];

/** Per goal: gradient start, gradient end, and the button colour (white text on it reaches 4.5:1). */
export const GOAL_PALETTES: Record<CampaignGoal, { from: string; to: string; accent: string }> = {
  lead_generation: { from: '#0f172a', to: '#0e7490', accent: '#0e7490' },
  product_launch: { from: '#1e1b4b', to: '#7c3aed', accent: '#6d28d9' },
  demo_booking: { from: '#0b1220', to: '#047857', accent: '#047857' },
  customer_retention: { from: '#1f2937', to: '#be185d', accent: '#be185d' },
  feature_announcement: { from: '#111827', to: '#4338ca', accent: '#4338ca' },
  case_study: { from: '#0c0a09', to: '#b45309', accent: '#b45309' },
  newsletter: { from: '#0f172a', to: '#0369a1', accent: '#0369a1' },
};

const rgb = (hex: string): Rgb => [
  Number.parseInt(hex.slice(1, 3), 16),
  Number.parseInt(hex.slice(3, 5), 16),
  Number.parseInt(hex.slice(5, 7), 16),
];

/** Deterministic per goal (a different waveform for each). */
function seedOf(text: string): () => number {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    return (h >>> 0) / 4294967296;
  };
}

/** Coverage of a pixel by a shape whose signed distance is `d` (negative inside). */
const cover = (d: number) => Math.min(1, Math.max(0, 0.5 - d));

/** The banner's RGB pixels, row by row. */
export function headerPixels(goal: CampaignGoal, width = HEADER_WIDTH, height = HEADER_HEIGHT): Uint8Array {
  const palette = GOAL_PALETTES[goal];
  const [a, b] = [rgb(palette.from), rgb(palette.to)];
  const rand = seedOf(goal);
  const scale = width / HEADER_WIDTH;
  // A waveform of rounded bars on the right half, its envelope a swell like speech.
  const bars: Array<{ x: number; half: number }> = [];
  const count = 26;
  const left = width * 0.52;
  const step = (width * 0.4) / count;
  const phase = rand() * Math.PI * 2;
  for (let i = 0; i < count; i++) {
    const t = i / (count - 1);
    const envelope = Math.sin(Math.PI * t) ** 0.8;
    const wobble = 0.55 + 0.45 * Math.abs(Math.sin(phase + i * (0.7 + rand() * 0.6)));
    bars.push({ x: left + i * step, half: Math.max(6 * scale, height * 0.32 * envelope * wobble) });
  }
  const barRadius = step * 0.28;
  const cy = height / 2;
  // Sound rings around a point on the left third.
  const ring = { x: width * 0.2, y: height * (0.35 + rand() * 0.3), radii: [60, 110, 160, 210] };
  const glow = { x: width * 0.85, y: height * 0.1, r: width * 0.55 };
  const out = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Diagonal gradient.
      const g = Math.min(1, Math.max(0, (x / width) * 0.75 + (y / height) * 0.25));
      let r = a[0] + (b[0] - a[0]) * g;
      let gr = a[1] + (b[1] - a[1]) * g;
      let bl = a[2] + (b[2] - a[2]) * g;
      // Soft white glow at the top right.
      const gd = Math.hypot(x - glow.x, y - glow.y) / glow.r;
      const glowA = gd < 1 ? 0.22 * (1 - gd) ** 2 : 0;
      // Rings: thin strokes, fading outwards.
      let ringA = 0;
      const rd = Math.hypot(x - ring.x, y - ring.y);
      for (const [i, radius] of ring.radii.entries()) {
        ringA = Math.max(ringA, cover(Math.abs(rd - radius * scale) - 1.5 * scale) * (0.28 - i * 0.05));
      }
      // Waveform bars: capsules (vertical segments with round ends).
      let barA = 0;
      if (x > left - step && x < left + count * step + step) {
        const i = Math.round((x - left) / step);
        for (const j of [i - 1, i, i + 1]) {
          const bar = bars[j];
          if (!bar) continue;
          const dy = Math.max(0, Math.abs(y - cy) - bar.half);
          barA = Math.max(barA, cover(Math.hypot(x - bar.x, dy) - barRadius) * 0.9);
        }
      }
      const white = Math.min(1, glowA + ringA + barA);
      r += (255 - r) * white;
      gr += (255 - gr) * white;
      bl += (255 - bl) * white;
      const o = (y * width + x) * 3;
      out[o] = Math.round(r);
      out[o + 1] = Math.round(gr);
      out[o + 2] = Math.round(bl);
    }
  }
  return out;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

const paeth = (a: number, b: number, c: number) => {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
};

/**
 * An 8-bit RGB PNG of the pixels. Each row takes the filter (None, Sub, Up, Average, Paeth)
 * whose output has the smallest sum of absolute values, the usual heuristic of PNG encoders.
 */
export function encodePng(pixels: Uint8Array, width: number, height: number): Buffer {
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  const candidates = [0, 1, 2, 3, 4].map(() => new Uint8Array(stride));
  for (let y = 0; y < height; y++) {
    const at = (i: number) => pixels[y * stride + i] as number;
    const up = (i: number) => (y > 0 ? (pixels[(y - 1) * stride + i] as number) : 0);
    let best = 0;
    let bestCost = Number.POSITIVE_INFINITY;
    for (const [filter, out] of candidates.entries()) {
      let cost = 0;
      for (let i = 0; i < stride; i++) {
        const left = i >= 3 ? at(i - 3) : 0;
        const above = up(i);
        const corner = i >= 3 ? up(i - 3) : 0;
        const predicted =
          filter === 0
            ? 0
            : filter === 1
              ? left
              : filter === 2
                ? above
                : filter === 3
                  ? (left + above) >> 1
                  : paeth(left, above, corner);
        const v = (at(i) - predicted) & 0xff;
        out[i] = v;
        cost += v < 128 ? v : 256 - v;
      }
      if (cost < bestCost) {
        bestCost = cost;
        best = filter;
      }
    }
    const row = y * (stride + 1);
    raw[row] = best;
    raw.set(candidates[best] as Uint8Array, row + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array()),
  ]);
}

/** The goal's header image as PNG bytes. */
export function headerPng(goal: CampaignGoal): Buffer {
  return encodePng(headerPixels(goal), HEADER_WIDTH, HEADER_HEIGHT);
}
