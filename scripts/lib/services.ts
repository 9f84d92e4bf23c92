import { blogService } from '@parley/blog/service';
import { bookingService } from '@parley/booking/service';
import { emailService } from '@parley/email/service';
import { identityService } from '@parley/identity/service';
import type { ServiceModule } from '@parley/kit';
import { settingsService } from '@parley/settings/service';
import { voiceService } from '@parley/voice/service';

/**
 * Every service that exists, in start order. Adding a service = one line here plus its
 * upstream URL variable in the gateway config.
 */
export const SERVICES: ServiceModule[] = [
  identityService,
  bookingService,
  blogService,
  voiceService,
  settingsService,
  emailService,
] as unknown as ServiceModule[];

/** Env var the gateway reads for a service's upstream URL. */
export const upstreamVar = (name: string) => `${name.toUpperCase()}_URL`;
