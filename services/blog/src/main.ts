import { runServiceMain } from '@parley/kit';
import { blogService } from './service.ts';

await runServiceMain(blogService);
