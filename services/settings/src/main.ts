import { runServiceMain } from '@parley/kit';
import { settingsService } from './service.ts';

await runServiceMain(settingsService);
