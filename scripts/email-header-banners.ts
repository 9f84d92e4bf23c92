import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CAMPAIGN_GOALS } from '@parley/contracts';
import { headerImagePath } from '../services/email/src/shared/header-banner.ts';
import { headerPng } from '../services/email/src/shared/header-banner-png.ts';
import { repoRoot } from './lib/paths.ts';

/**
 * Writes the generated campaigns' header images (one PNG per goal) into the web bundle's public
 * folder, from where the gateway serves them on the public origin: `pnpm exec tsx
 * scripts/email-header-banners.ts`. Run it after changing services/email/src/shared/header-banner.ts
 * (services/email/test/campaign-writer.test.ts fails while a committed image differs).
 */
for (const goal of CAMPAIGN_GOALS) {
  const file = join(repoRoot, 'web/public', headerImagePath(goal));
  mkdirSync(dirname(file), { recursive: true });
  const png = headerPng(goal);
  writeFileSync(file, png);
  console.log(`${file} (${Math.round(png.length / 1024)} KiB)`);
}
