-- Phones stored before input was normalized (issue 14) keep what people typed: spaces, hyphens,
-- dots, parentheses, bidi marks and Arabic-Indic digits. This does to them what the contract's
-- normalizePhone does to new input (Latin digits; no separators), so search, uniqueness and the
-- 10-15 character rule see one form. Plain SQL: it runs alike on PGlite and PostgreSQL.
UPDATE "users" SET "phone" = regexp_replace(translate("phone", '٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', '01234567890123456789'), '[[:space:]\u00a0\u1680\u2000-\u200a\u200e\u200f\u2028\u2029\u202a-\u202f\u205f\u2066-\u2069\u3000\ufeff\u2010-\u2015\u2212.()-]', '', 'g')
WHERE "phone" IS NOT NULL AND "phone" <> regexp_replace(translate("phone", '٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', '01234567890123456789'), '[[:space:]\u00a0\u1680\u2000-\u200a\u200e\u200f\u2028\u2029\u202a-\u202f\u205f\u2066-\u2069\u3000\ufeff\u2010-\u2015\u2212.()-]', '', 'g');
--> statement-breakpoint
UPDATE "customers" SET
  "phones" = ARRAY(SELECT regexp_replace(translate(entry.number, '٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', '01234567890123456789'), '[[:space:]\u00a0\u1680\u2000-\u200a\u200e\u200f\u2028\u2029\u202a-\u202f\u205f\u2066-\u2069\u3000\ufeff\u2010-\u2015\u2212.()-]', '', 'g') FROM unnest("phones") WITH ORDINALITY AS entry(number, place) ORDER BY entry.place),
  "phones_text" = array_to_string(ARRAY(SELECT regexp_replace(translate(entry.number, '٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', '01234567890123456789'), '[[:space:]\u00a0\u1680\u2000-\u200a\u200e\u200f\u2028\u2029\u202a-\u202f\u205f\u2066-\u2069\u3000\ufeff\u2010-\u2015\u2212.()-]', '', 'g') FROM unnest("phones") WITH ORDINALITY AS entry(number, place) ORDER BY entry.place), ' ')
WHERE EXISTS (SELECT 1 FROM unnest("phones") AS entry(number) WHERE entry.number <> regexp_replace(translate(entry.number, '٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', '01234567890123456789'), '[[:space:]\u00a0\u1680\u2000-\u200a\u200e\u200f\u2028\u2029\u202a-\u202f\u205f\u2066-\u2069\u3000\ufeff\u2010-\u2015\u2212.()-]', '', 'g'));
--> statement-breakpoint
UPDATE "locations" SET "phones" = (
  SELECT jsonb_agg(
    CASE WHEN jsonb_typeof(entry.value -> 'number') = 'string'
      THEN jsonb_set(entry.value, '{number}', to_jsonb(regexp_replace(translate(entry.value ->> 'number', '٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', '01234567890123456789'), '[[:space:]\u00a0\u1680\u2000-\u200a\u200e\u200f\u2028\u2029\u202a-\u202f\u205f\u2066-\u2069\u3000\ufeff\u2010-\u2015\u2212.()-]', '', 'g')))
      ELSE entry.value END
    ORDER BY entry.place)
  FROM jsonb_array_elements("phones") WITH ORDINALITY AS entry(value, place)
)
WHERE jsonb_typeof("phones") = 'array' AND EXISTS (
  SELECT 1 FROM jsonb_array_elements("phones") AS entry(value)
  WHERE jsonb_typeof(entry.value -> 'number') = 'string'
    AND entry.value ->> 'number' <> regexp_replace(translate(entry.value ->> 'number', '٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', '01234567890123456789'), '[[:space:]\u00a0\u1680\u2000-\u200a\u200e\u200f\u2028\u2029\u202a-\u202f\u205f\u2066-\u2069\u3000\ufeff\u2010-\u2015\u2212.()-]', '', 'g')
);
--> statement-breakpoint
-- A phone is unique among access requests: of several that become one number, the oldest takes
-- it, and none takes a number another request already has (the rest keep theirs as typed).
UPDATE "access_requests" SET "phone" = chosen.normalized
FROM (
  SELECT DISTINCT ON (normalized) id, normalized
  FROM (SELECT "id" AS id, "created_at" AS created_at, regexp_replace(translate("phone", '٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', '01234567890123456789'), '[[:space:]\u00a0\u1680\u2000-\u200a\u200e\u200f\u2028\u2029\u202a-\u202f\u205f\u2066-\u2069\u3000\ufeff\u2010-\u2015\u2212.()-]', '', 'g') AS normalized
        FROM "access_requests" WHERE "phone" <> regexp_replace(translate("phone", '٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', '01234567890123456789'), '[[:space:]\u00a0\u1680\u2000-\u200a\u200e\u200f\u2028\u2029\u202a-\u202f\u205f\u2066-\u2069\u3000\ufeff\u2010-\u2015\u2212.()-]', '', 'g')) AS changed
  ORDER BY normalized, created_at, id
) AS chosen
WHERE "access_requests"."id" = chosen.id
  AND NOT EXISTS (SELECT 1 FROM "access_requests" AS other WHERE other."phone" = chosen.normalized);
