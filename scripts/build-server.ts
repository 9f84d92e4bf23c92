/**
 * Builds what `pnpm start` runs from (called by scripts/start.mjs when its bundle is missing or
 * stale): the Prisma clients the services import, then the server bundle.
 */
import { generatePrismaClients } from './lib/build.ts';
import { buildServerBundle } from './lib/server-bundle.ts';

const log = (msg: string) => console.log(`parley: ${msg}`);
generatePrismaClients(log);
await buildServerBundle(log);
