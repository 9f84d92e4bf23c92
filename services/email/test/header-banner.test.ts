import { readFileSync } from 'node:fs';
import { CAMPAIGN_GOALS, type CampaignGoal } from '@parley/contracts';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { GOAL_PALETTES, HEADER_HEIGHT, HEADER_WIDTH, headerImagePath } from '../src/shared/header-banner.ts';
import { headerPng } from '../src/shared/header-banner-png.ts';

/** The campaigns' header images: SVG rendered with resvg, one committed PNG per goal. */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The IHDR fields, read from the bytes (the first chunk of every PNG). */
function ihdr(png: Buffer) {
  expect(png.subarray(0, 8).equals(SIGNATURE)).toBe(true);
  expect(png.toString('ascii', 12, 16)).toBe('IHDR');
  return {
    width: png.readUInt32BE(16),
    height: png.readUInt32BE(20),
    bitDepth: png[24],
    colourType: png[25],
  };
}

const hex = (h: string) => [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16));

function pixelAt(image: PNG, x: number, y: number): number[] {
  const o = (y * image.width + x) * 4;
  return [image.data[o]!, image.data[o + 1]!, image.data[o + 2]!];
}

const near = (actual: number[], expected: number[], tolerance: number) =>
  actual.every((v, i) => Math.abs(v - expected[i]!) <= tolerance);

const rendered = new Map<CampaignGoal, Buffer>();
const render = (goal: CampaignGoal) => {
  let png = rendered.get(goal);
  if (!png) {
    png = headerPng(goal);
    rendered.set(goal, png);
  }
  return png;
};

describe('header images', () => {
  it('renders an 8-bit RGB PNG of 1200×400 in the goal’s colours, with the white waveform', () => {
    for (const goal of ['newsletter', 'case_study'] as const) {
      const png = render(goal);
      expect(ihdr(png)).toEqual({ width: HEADER_WIDTH, height: HEADER_HEIGHT, bitDepth: 8, colourType: 2 });
      const image = PNG.sync.read(png);
      const { from, to } = GOAL_PALETTES[goal];
      // The gradient starts at the top left in `from` and ends at the bottom right in `to`
      // (under a trace of the glow).
      expect(near(pixelAt(image, 0, 0), hex(from), 2), goal).toBe(true);
      expect(near(pixelAt(image, HEADER_WIDTH - 1, HEADER_HEIGHT - 1), hex(to), 12), goal).toBe(true);
      // The middle bar of the waveform (right half, vertical centre) is near white.
      const middle = pixelAt(image, Math.round(HEADER_WIDTH * 0.52 + 13 * ((HEADER_WIDTH * 0.4) / 26)), 200);
      expect(Math.min(...middle), goal).toBeGreaterThan(220);
      // Left of the waveform, between the rings, the background shows.
      expect(Math.max(...pixelAt(image, 600, 20)), goal).toBeLessThan(200);
    }
  });

  it('has one committed 1200×400 PNG per goal in the web bundle, as the generator renders it', () => {
    const distinct = new Set<string>();
    for (const goal of CAMPAIGN_GOALS) {
      const file = new URL(`../../../web/public${headerImagePath(goal)}`, import.meta.url);
      const png = readFileSync(file);
      // Under 150 KiB: a header image must not make the mail heavy.
      expect(png.length).toBeLessThan(150 * 1024);
      expect(ihdr(png)).toMatchObject({ width: HEADER_WIDTH, height: HEADER_HEIGHT });
      // Regenerate with `pnpm exec tsx scripts/email-header-banners.ts` when this fails.
      const committed = PNG.sync.read(png).data;
      const fresh = PNG.sync.read(render(goal)).data;
      expect(committed.length).toBe(fresh.length);
      let worst = 0;
      for (let i = 0; i < fresh.length; i++) worst = Math.max(worst, Math.abs(committed[i]! - fresh[i]!));
      // resvg renders the same everywhere but for rounding on another CPU's vector paths.
      expect(worst, goal).toBeLessThanOrEqual(2);
      distinct.add(committed.toString('base64', 0, 4096 * 4));
    }
    expect(distinct.size).toBe(CAMPAIGN_GOALS.length);
    // Rendering seven 1200×400 images is CPU work (about a second alone, more on a busy machine).
  }, 60_000);
});
