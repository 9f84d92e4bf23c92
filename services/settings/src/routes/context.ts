import type { ServiceDeps } from '@parley/kit';
import type { SettingsConfig } from '../config.ts';
import type { BrandService } from '../crawl/brand.service.ts';
import type { PlatformProbe } from '../diagnostics/probe.ts';
import type { SettingsRepository } from '../repo/settings.repository.ts';
import type { CopySync } from '../services/copy-sync.ts';
import type { FeatureDiscoveryService } from '../services/feature-discovery.service.ts';

/** What the settings service's routes share. */
export interface RouteContext {
  deps: ServiceDeps;
  config: SettingsConfig;
  repo: SettingsRepository;
  probe: PlatformProbe;
  copies: CopySync;
  brand: BrandService;
  features: FeatureDiscoveryService;
}
