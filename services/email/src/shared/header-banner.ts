import type { CampaignGoal } from '@parley/contracts';

/**
 * The header images of generated campaigns: one 1200×400 PNG per goal (shown 600×200, sharp on
 * high-density screens), a diagonal gradient in the goal's colours with a soft glow, sound
 * rings and a voice waveform (what the product does). PNG, not SVG: Gmail, Outlook and Apple
 * Mail all show PNG, none shows SVG reliably. No words are drawn into the picture: the
 * headline is live text under it, readable with images off and by screen readers.
 *
 * The pictures are drawn as SVG here and rendered to PNG with resvg (as the blog's social
 * images are) by header-banner-png.ts, at build time only: they are written once into the web
 * bundle's public folder (`pnpm exec tsx
 * scripts/email-header-banners.ts`), served by the gateway at
 * `/email/headers/<goal>.png` on the public origin.
 */

export const HEADER_WIDTH = 1200;
export const HEADER_HEIGHT = 400;
/** Where the banners are served on the public origin. */
export const headerImagePath = (goal: CampaignGoal) => `/email/headers/${goal}.png`;

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

const n = (v: number) => String(Math.round(v * 100) / 100);

/** The goal's banner as SVG (drawn at `width`×`height`, the PNG's pixel size). */
export function headerSvg(goal: CampaignGoal, width = HEADER_WIDTH, height = HEADER_HEIGHT): string {
  const palette = GOAL_PALETTES[goal];
  const rand = seedOf(goal);
  const scale = width / HEADER_WIDTH;
  // A waveform of rounded bars on the right half, its envelope a swell like speech.
  const count = 26;
  const left = width * 0.52;
  const step = (width * 0.4) / count;
  const phase = rand() * Math.PI * 2;
  const barRadius = step * 0.28;
  const cy = height / 2;
  const bars: string[] = [];
  for (let i = 0; i < count; i++) {
    const t = i / (count - 1);
    const envelope = Math.sin(Math.PI * t) ** 0.8;
    const wobble = 0.55 + 0.45 * Math.abs(Math.sin(phase + i * (0.7 + rand() * 0.6)));
    const half = Math.max(6 * scale, height * 0.32 * envelope * wobble);
    const x = left + i * step;
    bars.push(
      `<rect x="${n(x - barRadius)}" y="${n(cy - half - barRadius)}" width="${n(2 * barRadius)}" height="${n(2 * (half + barRadius))}" rx="${n(barRadius)}"/>`,
    );
  }
  // Sound rings around a point on the left third, thin and fading outwards.
  const ring = { x: width * 0.2, y: height * (0.35 + rand() * 0.3) };
  const rings = [60, 110, 160, 210].map(
    (radius, i) =>
      `<circle cx="${n(ring.x)}" cy="${n(ring.y)}" r="${n(radius * scale)}" stroke-opacity="${n(0.28 - i * 0.05)}"/>`,
  );
  // The gradient runs along (0.75 / width, 0.25 / height): 0 at the top left, 1 at the bottom right.
  const gx = 0.75 / width;
  const gy = 0.25 / height;
  const len2 = gx * gx + gy * gy;
  // A soft white glow at the top right, fading with the square of the distance.
  const glowStops = Array.from({ length: 11 }, (_, i) => {
    const t = i / 10;
    return `<stop offset="${n(t)}" stop-color="#fff" stop-opacity="${Math.round(0.22 * (1 - t) ** 2 * 1000) / 1000}"/>`;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    '<defs>',
    `<linearGradient id="bg" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="${n(gx / len2)}" y2="${n(gy / len2)}">`,
    `<stop offset="0" stop-color="${palette.from}"/><stop offset="1" stop-color="${palette.to}"/>`,
    '</linearGradient>',
    `<radialGradient id="glow" gradientUnits="userSpaceOnUse" cx="${n(width * 0.85)}" cy="${n(height * 0.1)}" r="${n(width * 0.55)}">`,
    ...glowStops,
    '</radialGradient>',
    '</defs>',
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>`,
    `<rect width="${width}" height="${height}" fill="url(#glow)"/>`,
    `<g fill="none" stroke="#fff" stroke-width="${n(3 * scale)}">${rings.join('')}</g>`,
    `<g fill="#fff" fill-opacity="0.9">${bars.join('')}</g>`,
    '</svg>',
  ].join('\n');
}
