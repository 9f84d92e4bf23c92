import { fileURLToPath } from 'node:url';
import { migrationSuite } from '@parley/kit/testing/migration-suite';

migrationSuite('email', fileURLToPath(new URL('../prisma/migrations', import.meta.url)), [
  // audience (20261125000000_audience)
  'constraint address_books.address_books_color_hex',
  'constraint address_books.address_books_name_not_blank',
  'constraint email_contacts.email_contacts_email_not_blank',
  'constraint email_suppressions.email_suppressions_address_lower',
  'index address_books_name_key',
  'index address_books_one_default_key',
  'index email_contacts_inactive_idx',
  'index email_imports_one_running_key',
  // campaigns (20261126000000_campaigns)
  'index email_campaign_recipients_pending_idx',
  'index email_campaign_recipients_sending_idx',
  'index email_campaign_sends_due_idx',
  'index email_campaign_sends_live_idx',
  // blog copy (20261127000005_blog_copy)
  'constraint email_copy_state.email_copy_state_one_row',
  // newsletters (20261127000006_newsletters)
  'index email_contacts_company_key_idx',
  // contact search (20261129000000_contact_search_index)
  'index email_contact_search_trgm_idx',
  // Sent mail and delivery logs (20261201000100_sent_mail_every_message)
  'index mail_messages_to_idx',
  'index mail_messages_campaign_idx',
  'index email_campaign_recipients_provider_message_id_idx',
  'index email_tracking_bounced_idx',
  'index email_tracking_complained_idx',
  'index email_tracking_unsubscribed_idx',
  // analytics rollups: one folded row per key (20261202000000_analytics_rollups)
  'index email_rollup_activity_folded_key',
  'index email_rollup_mail_folded_key',
  // the engagement report's lists (20261202000100_engagement_list_indexes)
  'index email_tracking_clicked_idx',
  'index email_tracking_opened_idx',
  'index email_tracking_proxy_opened_idx',
  // segments: names unique regardless of case (20261204000000_segments)
  'index email_segments_name_key',
]);
