-- A recipient keeps its contact's attributes as they were when the send was written, as it
-- keeps the name and company: {{attr.key}} merge fields (docs/adr/0069-contact-edit-and-attributes.md).
-- Null when the contact had none, so a send of contacts without attributes stores nothing more.
ALTER TABLE "email_campaign_recipients" ADD COLUMN "attributes" JSONB;
