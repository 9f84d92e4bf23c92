-- A call's row is written before the provider is asked (a reservation): its callSid is known
-- only once the provider answers (or its first status callback arrives), and a provider's
-- refusal is recorded, so that attempt never counts against the demo limits.

-- AlterTable
ALTER TABLE "conversations" ADD COLUMN "place_error" TEXT,
ALTER COLUMN "call_sid" DROP NOT NULL;
