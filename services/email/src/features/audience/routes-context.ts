import type { ServiceDeps } from '@parley/kit';
import type { AddressBooksRepository } from './address-books.repository.ts';
import type { ContactsRepository } from './contacts.repository.ts';
import type { ImportsRepository } from './imports.repository.ts';
import type { Importer } from './imports.service.ts';

/** What the audience routes (address books, contacts, imports) work with. */
export interface AudienceRouteContext {
  deps: ServiceDeps;
  books: AddressBooksRepository;
  contacts: ContactsRepository;
  jobs: ImportsRepository;
  importer: Importer;
}

export const audienceErrors = <T>(schema: T) => ({
  400: schema,
  401: schema,
  403: schema,
  404: schema,
  409: schema,
});
