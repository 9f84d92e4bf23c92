import { runServiceMain } from '@parley/kit';
import { bookingService } from './service.ts';

await runServiceMain(bookingService);
