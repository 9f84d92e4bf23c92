-- Settings store and brand analyses (spec §3 "Settings entry", "Brand analysis result").
CREATE TABLE "settings" (
    "id" UUID NOT NULL,
    "key" VARCHAR(100) NOT NULL,
    "value" TEXT NOT NULL,
    "description" TEXT,
    "category" VARCHAR(50) NOT NULL DEFAULT 'general',
    "secret" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "settings_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "brand_analyses" (
    "id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "provider" VARCHAR(20) NOT NULL,
    "analysis" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "brand_analyses_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "settings_key_key" ON "settings"("key");

CREATE INDEX "brand_analyses_created_at_idx" ON "brand_analyses"("created_at");

-- What Prisma cannot express: the key's form (SETTING_KEY_PATTERN in @parley/contracts),
-- versions start at 1, and a secret is only ever stored sealed (kit/src/secrets.ts).
ALTER TABLE "settings" ADD CONSTRAINT "settings_key_format" CHECK ("key" ~ '^[A-Za-z0-9][A-Za-z0-9_.:-]*$');
ALTER TABLE "settings" ADD CONSTRAINT "settings_version_positive" CHECK ("version" >= 1);
ALTER TABLE "settings" ADD CONSTRAINT "settings_secret_sealed" CHECK (NOT "secret" OR "value" LIKE 'v1.%');
