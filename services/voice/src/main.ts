import { runServiceMain } from '@parley/kit';
import { voiceService } from './service.ts';

await runServiceMain(voiceService);
