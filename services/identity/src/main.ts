import { runServiceMain } from '@parley/kit';
import { identityService } from './service.ts';

await runServiceMain(identityService);
