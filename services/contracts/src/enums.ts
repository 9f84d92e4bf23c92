/** Enumerations shared by the services, the gateway and the web app. */

export const BOOKING_STATUSES = [
  'confirmed',
  'completed',
  'cancelled',
  'no_show',
  'qualified_lead',
  'client',
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const COMPANY_SIZES = ['1-50', '51-200', '201-1000', '1000+'] as const;
export type CompanySize = (typeof COMPANY_SIZES)[number];

export const ADMIN_ROLES = ['admin', 'super_admin'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** The services of the system; the gateway routes to these names. */
export const SERVICE_NAMES = ['identity', 'booking', 'blog', 'voice', 'email', 'settings'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];
