import { runServiceMain } from '@parley/kit';
import { emailService } from './service.ts';

await runServiceMain(emailService);
