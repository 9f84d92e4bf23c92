import type { CampaignGoal } from '@parley/contracts';
import { Resvg } from '@resvg/resvg-js';
import { PNG } from 'pngjs';
import { HEADER_HEIGHT, HEADER_WIDTH, headerSvg } from './header-banner.ts';

/**
 * The goal's header image as PNG bytes: its SVG rendered with resvg (no text, so no fonts),
 * written as 8-bit RGB by pngjs with per-row adaptive filters and the strongest deflate.
 * resvg's own PNG (RGBA, fast settings) is 180–210 KB a banner against about 80 KiB here, and a
 * header image must not make the mail heavy. Build time only
 * (scripts/email-header-banners.ts and the tests): the service never imports this module.
 */
export function headerPng(goal: CampaignGoal): Buffer {
  const rendered = new Resvg(headerSvg(goal), { font: { loadSystemFonts: false } }).render();
  if (rendered.width !== HEADER_WIDTH || rendered.height !== HEADER_HEIGHT) {
    throw new Error(`header image rendered at ${rendered.width}×${rendered.height}`);
  }
  const png = new PNG({ width: rendered.width, height: rendered.height });
  png.data = Buffer.from(rendered.pixels);
  // The banner is opaque: its alpha is dropped, not blended.
  // zlib's default strategy: pngjs defaults to Z_RLE, which leaves the gradients 60 % larger.
  return PNG.sync.write(png, { colorType: 2, filterType: -1, deflateLevel: 9, deflateStrategy: 0 });
}
