-- Codes are compared as the contract's normalizeCode makes them (issue 29): invisible characters
-- removed (Unicode's Default_Ignorable_Code_Point, the ranges of `invisibleInCodes`), then NFKC,
-- then trimmed. normalize_code is that rule in SQL, for this migration and for the check that
-- lists the codes it could not normalize (`check-codes`, and the server's start).
CREATE OR REPLACE FUNCTION normalize_code(code text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT btrim(normalize(regexp_replace(code, '[\u00ad\u034f\u061c\u115f-\u1160\u17b4-\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]', '', 'g'), NFKC), E' \t\n\u000b\f\r\u1680\u2028\u2029') $$;
--> statement-breakpoint
-- A stored code becomes its normalized form only where that collides with nothing: no other
-- record of its workspace has, or normalizes to, the same code. Codes that collide are left as
-- they are, for the merchant to tell apart (`npm run dukkan -- check-codes` lists them), and so
-- is a code that normalizes to nothing. Unique per workspace: the catalogue, products, roles;
-- staff codes and variants' SKUs where they are set. (Barcodes were always ASCII digits.)
WITH normalized AS (
  SELECT "workspace_id", "id" AS key, "code" AS code, normalize_code("code") AS code_normalized
  FROM "brands" WHERE "code" IS NOT NULL
), alone AS (
  SELECT "workspace_id", code_normalized FROM normalized GROUP BY "workspace_id", code_normalized HAVING count(*) = 1
)
UPDATE "brands" SET "code" = normalized.code_normalized
FROM normalized JOIN alone USING ("workspace_id", code_normalized)
WHERE "brands"."workspace_id" = normalized."workspace_id" AND "brands"."id" = normalized.key
  AND normalized.code <> normalized.code_normalized AND normalized.code_normalized <> '';
--> statement-breakpoint
WITH normalized AS (
  SELECT "workspace_id", "id" AS key, "code" AS code, normalize_code("code") AS code_normalized
  FROM "locations" WHERE "code" IS NOT NULL
), alone AS (
  SELECT "workspace_id", code_normalized FROM normalized GROUP BY "workspace_id", code_normalized HAVING count(*) = 1
)
UPDATE "locations" SET "code" = normalized.code_normalized
FROM normalized JOIN alone USING ("workspace_id", code_normalized)
WHERE "locations"."workspace_id" = normalized."workspace_id" AND "locations"."id" = normalized.key
  AND normalized.code <> normalized.code_normalized AND normalized.code_normalized <> '';
--> statement-breakpoint
WITH normalized AS (
  SELECT "workspace_id", "id" AS key, "code" AS code, normalize_code("code") AS code_normalized
  FROM "taxes" WHERE "code" IS NOT NULL
), alone AS (
  SELECT "workspace_id", code_normalized FROM normalized GROUP BY "workspace_id", code_normalized HAVING count(*) = 1
)
UPDATE "taxes" SET "code" = normalized.code_normalized
FROM normalized JOIN alone USING ("workspace_id", code_normalized)
WHERE "taxes"."workspace_id" = normalized."workspace_id" AND "taxes"."id" = normalized.key
  AND normalized.code <> normalized.code_normalized AND normalized.code_normalized <> '';
--> statement-breakpoint
WITH normalized AS (
  SELECT "workspace_id", "id" AS key, "code" AS code, normalize_code("code") AS code_normalized
  FROM "measurement_units" WHERE "code" IS NOT NULL
), alone AS (
  SELECT "workspace_id", code_normalized FROM normalized GROUP BY "workspace_id", code_normalized HAVING count(*) = 1
)
UPDATE "measurement_units" SET "code" = normalized.code_normalized
FROM normalized JOIN alone USING ("workspace_id", code_normalized)
WHERE "measurement_units"."workspace_id" = normalized."workspace_id" AND "measurement_units"."id" = normalized.key
  AND normalized.code <> normalized.code_normalized AND normalized.code_normalized <> '';
--> statement-breakpoint
WITH normalized AS (
  SELECT "workspace_id", "id" AS key, "code" AS code, normalize_code("code") AS code_normalized
  FROM "categories" WHERE "code" IS NOT NULL
), alone AS (
  SELECT "workspace_id", code_normalized FROM normalized GROUP BY "workspace_id", code_normalized HAVING count(*) = 1
)
UPDATE "categories" SET "code" = normalized.code_normalized
FROM normalized JOIN alone USING ("workspace_id", code_normalized)
WHERE "categories"."workspace_id" = normalized."workspace_id" AND "categories"."id" = normalized.key
  AND normalized.code <> normalized.code_normalized AND normalized.code_normalized <> '';
--> statement-breakpoint
WITH normalized AS (
  SELECT "workspace_id", "id" AS key, "code" AS code, normalize_code("code") AS code_normalized
  FROM "waste_categories" WHERE "code" IS NOT NULL
), alone AS (
  SELECT "workspace_id", code_normalized FROM normalized GROUP BY "workspace_id", code_normalized HAVING count(*) = 1
)
UPDATE "waste_categories" SET "code" = normalized.code_normalized
FROM normalized JOIN alone USING ("workspace_id", code_normalized)
WHERE "waste_categories"."workspace_id" = normalized."workspace_id" AND "waste_categories"."id" = normalized.key
  AND normalized.code <> normalized.code_normalized AND normalized.code_normalized <> '';
--> statement-breakpoint
WITH normalized AS (
  SELECT "workspace_id", "id" AS key, "code" AS code, normalize_code("code") AS code_normalized
  FROM "product_tags" WHERE "code" IS NOT NULL
), alone AS (
  SELECT "workspace_id", code_normalized FROM normalized GROUP BY "workspace_id", code_normalized HAVING count(*) = 1
)
UPDATE "product_tags" SET "code" = normalized.code_normalized
FROM normalized JOIN alone USING ("workspace_id", code_normalized)
WHERE "product_tags"."workspace_id" = normalized."workspace_id" AND "product_tags"."id" = normalized.key
  AND normalized.code <> normalized.code_normalized AND normalized.code_normalized <> '';
--> statement-breakpoint
WITH normalized AS (
  SELECT "workspace_id", "id" AS key, "code" AS code, normalize_code("code") AS code_normalized
  FROM "customers" WHERE "code" IS NOT NULL
), alone AS (
  SELECT "workspace_id", code_normalized FROM normalized GROUP BY "workspace_id", code_normalized HAVING count(*) = 1
)
UPDATE "customers" SET "code" = normalized.code_normalized
FROM normalized JOIN alone USING ("workspace_id", code_normalized)
WHERE "customers"."workspace_id" = normalized."workspace_id" AND "customers"."id" = normalized.key
  AND normalized.code <> normalized.code_normalized AND normalized.code_normalized <> '';
--> statement-breakpoint
WITH normalized AS (
  SELECT "workspace_id", "id" AS key, "code" AS code, normalize_code("code") AS code_normalized
  FROM "variation_types" WHERE "code" IS NOT NULL
), alone AS (
  SELECT "workspace_id", code_normalized FROM normalized GROUP BY "workspace_id", code_normalized HAVING count(*) = 1
)
UPDATE "variation_types" SET "code" = normalized.code_normalized
FROM normalized JOIN alone USING ("workspace_id", code_normalized)
WHERE "variation_types"."workspace_id" = normalized."workspace_id" AND "variation_types"."id" = normalized.key
  AND normalized.code <> normalized.code_normalized AND normalized.code_normalized <> '';
--> statement-breakpoint
WITH normalized AS (
  SELECT "workspace_id", "id" AS key, "code" AS code, normalize_code("code") AS code_normalized
  FROM "variation_values" WHERE "code" IS NOT NULL
), alone AS (
  SELECT "workspace_id", code_normalized FROM normalized GROUP BY "workspace_id", code_normalized HAVING count(*) = 1
)
UPDATE "variation_values" SET "code" = normalized.code_normalized
FROM normalized JOIN alone USING ("workspace_id", code_normalized)
WHERE "variation_values"."workspace_id" = normalized."workspace_id" AND "variation_values"."id" = normalized.key
  AND normalized.code <> normalized.code_normalized AND normalized.code_normalized <> '';
--> statement-breakpoint
WITH normalized AS (
  SELECT "workspace_id", "id" AS key, "code" AS code, normalize_code("code") AS code_normalized
  FROM "products" WHERE "code" IS NOT NULL
), alone AS (
  SELECT "workspace_id", code_normalized FROM normalized GROUP BY "workspace_id", code_normalized HAVING count(*) = 1
)
UPDATE "products" SET "code" = normalized.code_normalized
FROM normalized JOIN alone USING ("workspace_id", code_normalized)
WHERE "products"."workspace_id" = normalized."workspace_id" AND "products"."id" = normalized.key
  AND normalized.code <> normalized.code_normalized AND normalized.code_normalized <> '';
--> statement-breakpoint
WITH normalized AS (
  SELECT "workspace_id", "id" AS key, "code" AS code, normalize_code("code") AS code_normalized
  FROM "roles" WHERE "code" IS NOT NULL
), alone AS (
  SELECT "workspace_id", code_normalized FROM normalized GROUP BY "workspace_id", code_normalized HAVING count(*) = 1
)
UPDATE "roles" SET "code" = normalized.code_normalized
FROM normalized JOIN alone USING ("workspace_id", code_normalized)
WHERE "roles"."workspace_id" = normalized."workspace_id" AND "roles"."id" = normalized.key
  AND normalized.code <> normalized.code_normalized AND normalized.code_normalized <> '';
--> statement-breakpoint
WITH normalized AS (
  SELECT "workspace_id", "user_id" AS key, "code" AS code, normalize_code("code") AS code_normalized
  FROM "memberships" WHERE "code" IS NOT NULL
), alone AS (
  SELECT "workspace_id", code_normalized FROM normalized GROUP BY "workspace_id", code_normalized HAVING count(*) = 1
)
UPDATE "memberships" SET "code" = normalized.code_normalized
FROM normalized JOIN alone USING ("workspace_id", code_normalized)
WHERE "memberships"."workspace_id" = normalized."workspace_id" AND "memberships"."user_id" = normalized.key
  AND normalized.code <> normalized.code_normalized AND normalized.code_normalized <> '';
--> statement-breakpoint
WITH normalized AS (
  SELECT "workspace_id", "id" AS key, "sku" AS code, normalize_code("sku") AS code_normalized
  FROM "product_variants" WHERE "sku" IS NOT NULL
), alone AS (
  SELECT "workspace_id", code_normalized FROM normalized GROUP BY "workspace_id", code_normalized HAVING count(*) = 1
)
UPDATE "product_variants" SET "sku" = normalized.code_normalized
FROM normalized JOIN alone USING ("workspace_id", code_normalized)
WHERE "product_variants"."workspace_id" = normalized."workspace_id" AND "product_variants"."id" = normalized.key
  AND normalized.code <> normalized.code_normalized AND normalized.code_normalized <> '';
