import type { ServiceDeps } from '@parley/kit';
import type { BlogSettings } from '../config.ts';
import type { PublicCache } from '../domain/public-cache.ts';
import type { ContentGenerator } from '../providers/index.ts';
import type { BlogRepository } from '../repo/blog.repository.ts';

export interface BlogRouteContext {
  repo: BlogRepository;
  cache: PublicCache;
  generator: ContentGenerator;
  settings: BlogSettings;
  deps: ServiceDeps;
  now: () => Date;
}
