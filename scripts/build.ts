/**
 * Builds what `pnpm start` needs and is missing or stale (Prisma clients, the production web
 * bundle), under the build lock: what test.sh runs before the tiers that start the platform.
 */
import { buildWhatIsNeeded } from './lib/build.ts';

buildWhatIsNeeded((m) => console.log(m));
