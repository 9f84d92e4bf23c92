/**
 * Parley's public contact details, in one place for the contact section, the footer, the
 * legal pages and the book-demo page. The numbers in the 555-01xx range are reserved for
 * fiction, so a template deployment can never ring a stranger; replace them before launch.
 */
export const SALES_PHONE = '+1 (617) 555-0142';
export const SALES_PHONE_HREF = 'tel:+16175550142';
export const SALES_EMAIL = 'sales@parley.ai';
/** Spec §9: sales hours. */
export const SALES_HOURS = 'Mon-Fri 9 AM-6 PM EST';
export const PRIVACY_EMAIL = 'privacy@parley.ai';
export const LEGAL_EMAIL = 'legal@parley.ai';
export const COMPANY_NAME = 'Parley, Inc.';
export const COMPANY_LOCATION = 'Cambridge, MA';
/** Postal address for written requests (street line to be added before launch). */
export const COMPANY_POSTAL_ADDRESS = 'Cambridge, MA 02139, USA';
