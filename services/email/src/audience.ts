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
  deps.onShutdown(async () => {
    clearInterval(compaction);
    await importer.stop();
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
