import type { ServiceInstance } from '@parley/kit';
import type { EmailContext } from '../../context.ts';
import { AddressBooksRepository } from './address-books.repository.ts';
import { addressBookRoutes } from './address-books.routes.ts';
import { ContactsRepository } from './contacts.repository.ts';
import { contactRoutes } from './contacts.routes.ts';
import { ImportsRepository } from './imports.repository.ts';
import { importRoutes } from './imports.routes.ts';
import { Importer } from './imports.service.ts';
import { SegmentsRepository } from './segments.repository.ts';
import { segmentRoutes } from './segments.routes.ts';

/** How often committed contact-count deltas are folded into the books. */
const COMPACT_MS = 5000;
/** How often the search indexer looks for contacts queued for it (SEARCH_INDEX_MS). */
const INDEX_MS = 1000;

/** What the rest of the service (and tests) may use of the audience half. */
export interface AudienceHandle {
  books: AddressBooksRepository;
  contacts: ContactsRepository;
  jobs: ImportsRepository;
  importer: Importer;
  segments: SegmentsRepository;
}

/** Address books, contacts, the suppression list, imports and exports. */
export async function registerAudience(app: ServiceInstance, ctx: EmailContext): Promise<AudienceHandle> {
  const { deps } = ctx;
  const logger = deps.logger.child({ component: 'audience' });
  const books = new AddressBooksRepository(deps.pool);
  const contacts = new ContactsRepository(deps.pool);
  const jobs = new ImportsRepository(deps.pool);
  const importer = new Importer(jobs, deps.config.DATABASE_URL, logger);
  const segments = new SegmentsRepository(deps.pool);

  // The default book exists from the first start on (several replicas may race: one wins).
  await books.ensureDefault();
  deps.job({
    name: 'import-reaper',
    scope: 'one',
    everyMs: 10_000,
    firstAfterMs: 0,
    run: () => importer.reap(),
  });
  deps.job({
    name: 'contact-count-compaction',
    scope: 'one',
    everyMs: COMPACT_MS,
    run: () => books.compactCounts(),
  });
  // Contacts written since the last pass go into the search index (searches find them before
  // that too, only slower); a failed pass leaves the queue to the next.
  deps.job({
    name: 'search-index',
    scope: 'one',
    everyMs: deps.config.SEARCH_INDEX_MS ?? INDEX_MS,
    run: (signal) => contacts.indexQueued(signal),
  });
  deps.onShutdown(() => importer.stop());

  const routeCtx = { deps, books, contacts, jobs, importer };
  // Each group in its own scope: the import routes parse multipart bodies.
  await app.register(async (scope) => {
    await addressBookRoutes(scope, routeCtx);
    await contactRoutes(scope, routeCtx);
    await segmentRoutes(scope, { ...routeCtx, segments });
  });
  await app.register(async (scope) => importRoutes(scope, routeCtx));
  return { books, contacts, jobs, importer, segments };
}
