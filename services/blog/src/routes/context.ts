import type { ServiceDeps } from '@parley/kit';
import type { BlogSettings } from '../config.ts';
import type { ContentGenerator } from '../providers/index.ts';
import type { BlogRepository } from '../repo/blog.repository.ts';
import type { PublicCache } from '../repo/public-cache.ts';

export interface BlogRouteContext {
  repo: BlogRepository;
  cache: PublicCache;
  generator: ContentGenerator;
  settings: BlogSettings;
  deps: ServiceDeps;
  now: () => Date;
}
