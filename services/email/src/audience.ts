import type { ServiceInstance } from '@parley/kit';
import type { EmailContext } from './context.ts';

/** Address books, contacts, the suppression list, imports and exports. */
export async function registerAudience(_app: ServiceInstance, _ctx: EmailContext): Promise<void> {}
