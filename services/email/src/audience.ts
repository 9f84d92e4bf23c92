import type { ServiceInstance } from '@parley/kit';
import type { EmailContext } from './context.ts';
import { Importer } from './importer.ts';
import { AddressBooksRepository } from './repo/address-books.repository.ts';
import { ContactsRepository } from './repo/contacts.repository.ts';
import { ImportsRepository } from './repo/imports.repository.ts';
import { addressBookRoutes } from './routes/address-books.ts';
import { contactRoutes } from './routes/contacts.ts';
import { importRoutes } from './routes/imports.ts';

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
}

/** Address books, contacts, the suppression list, imports and exports. */
export async function registerAudience(app: ServiceInstance, ctx: EmailContext): Promise<AudienceHandle> {
  const { deps } = ctx;
  const logger = deps.logger.child({ component: 'audience' });
  const books = new AddressBooksRepository(deps.pool);
  const contacts = new ContactsRepository(deps.pool);
  const jobs = new ImportsRepository(deps.pool);
  const importer = new Importer(jobs, deps.config.DATABASE_URL, logger);

  // The default book exists from the first start on (several replicas may race: one wins).
  await books.ensureDefault();
  importer.startReaper();
  const compaction = setInterval(
    () => void books.compactCounts().catch((err) => logger.warn({ err }, 'contact count compaction failed')),
    COMPACT_MS,
  );
  compaction.unref();
  // Contacts written since the last pass go into the search index (searches find them before
  // that too, only slower). One pass at a time; a failed pass leaves the queue to the next.
  let indexing: Promise<unknown> | null = null;
  const stopIndexing = new AbortController();
  const index = () => {
    indexing ??= contacts
      .indexQueued(stopIndexing.signal)
      .catch((err) => logger.warn({ err }, 'search indexing failed'))
      .finally(() => {
        indexing = null;
      });
  };
  const indexer = setInterval(index, deps.config.SEARCH_INDEX_MS ?? INDEX_MS);
  indexer.unref();
  deps.onShutdown(async () => {
    clearInterval(compaction);
    clearInterval(indexer);
    stopIndexing.abort();
    await importer.stop();
    await indexing;
  });

  const routeCtx = { deps, books, contacts, jobs, importer };
  // Each group in its own scope: the import routes parse multipart bodies.
  await app.register(async (scope) => {
    await addressBookRoutes(scope, routeCtx);
    await contactRoutes(scope, routeCtx);
  });
  await app.register(async (scope) => importRoutes(scope, routeCtx));
  return { books, contacts, jobs, importer };
}
