-- Search text folded as the contract's normalizeSearchText folds it (issue: search that finds what
-- Arabic speakers type): hamza forms of alef, alef maksura, teh marbuta, waw and yeh with hamza,
-- the letters and digits a Persian keyboard types, Arabic-Indic digits, case (a fixed table for
-- Latin, Greek and Cyrillic, not lower(), which follows the cluster's locale), and the marks that
-- are removed (diacritics, tatweel, invisible marks). One translate() of one character to one or
-- none: the same on PGlite and on any PostgreSQL. Its strings are the contract's
-- `searchTextTranslation` (test/search/search-fold.test.ts holds the two equal). A record's fields
-- are parted by chr(31), the unit separator, which no typed word holds: a search ranks a record
-- whose field is the typed text, or starts with it, first.
CREATE OR REPLACE FUNCTION search_fold(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT translate(value, U&'\0623\0625\0622\0671\0649\0629\0624\0626\06a9\06cc\06c0\0660\0661\0662\0663\0664\0665\0666\0667\0668\0669\06f0\06f1\06f2\06f3\06f4\06f5\06f6\06f7\06f8\06f9ABCDEFGHIJKLMNOPQRSTUVWXYZ\00c0\00c1\00c2\00c3\00c4\00c5\00c6\00c7\00c8\00c9\00ca\00cb\00cc\00cd\00ce\00cf\00d0\00d1\00d2\00d3\00d4\00d5\00d6\00d8\00d9\00da\00db\00dc\00dd\00de\0100\0102\0104\0106\0108\010a\010c\010e\0110\0112\0114\0116\0118\011a\011c\011e\0120\0122\0124\0126\0128\012a\012c\012e\0130\0132\0134\0136\0139\013b\013d\013f\0141\0143\0145\0147\014a\014c\014e\0150\0152\0154\0156\0158\015a\015c\015e\0160\0162\0164\0166\0168\016a\016c\016e\0170\0172\0174\0176\0178\0179\017b\017d\0370\0372\0376\037f\0386\0388\0389\038a\038c\038e\038f\0391\0392\0393\0394\0395\0396\0397\0398\0399\039a\039b\039c\039d\039e\039f\03a0\03a1\03a3\03a4\03a5\03a6\03a7\03a8\03a9\03aa\03ab\03cf\03d8\03da\03dc\03de\03e0\03e2\03e4\03e6\03e8\03ea\03ec\03ee\03f4\03f7\03f9\03fa\03fd\03fe\03ff\0400\0401\0402\0403\0404\0405\0406\0407\0408\0409\040a\040b\040c\040d\040e\040f\0410\0411\0412\0413\0414\0415\0416\0417\0418\0419\041a\041b\041c\041d\041e\041f\0420\0421\0422\0423\0424\0425\0426\0427\0428\0429\042a\042b\042c\042d\042e\042f\0460\0462\0464\0466\0468\046a\046c\046e\0470\0472\0474\0476\0478\047a\047c\047e\0480\048a\048c\048e\0490\0492\0494\0496\0498\049a\049c\049e\04a0\04a2\04a4\04a6\04a8\04aa\04ac\04ae\04b0\04b2\04b4\04b6\04b8\04ba\04bc\04be\04c0\04c1\04c3\04c5\04c7\04c9\04cb\04cd\04d0\04d2\04d4\04d6\04d8\04da\04dc\04de\04e0\04e2\04e4\04e6\04e8\04ea\04ec\04ee\04f0\04f2\04f4\04f6\04f8\04fa\04fc\04fe\0640\064b\064c\064d\064e\064f\0650\0651\0652\0653\0654\0655\0656\0657\0658\0659\065a\065b\065c\065d\065e\065f\0670\061c\200b\200c\200d\200e\200f', U&'\0627\0627\0627\0627\064a\0647\0648\064a\0643\064a\064701234567890123456789abcdefghijklmnopqrstuvwxyz\00e0\00e1\00e2\00e3\00e4\00e5\00e6\00e7\00e8\00e9\00ea\00eb\00ec\00ed\00ee\00ef\00f0\00f1\00f2\00f3\00f4\00f5\00f6\00f8\00f9\00fa\00fb\00fc\00fd\00fe\0101\0103\0105\0107\0109\010b\010d\010f\0111\0113\0115\0117\0119\011b\011d\011f\0121\0123\0125\0127\0129\012b\012d\012fi\0133\0135\0137\013a\013c\013e\0140\0142\0144\0146\0148\014b\014d\014f\0151\0153\0155\0157\0159\015b\015d\015f\0161\0163\0165\0167\0169\016b\016d\016f\0171\0173\0175\0177\00ff\017a\017c\017e\0371\0373\0377\03f3\03ac\03ad\03ae\03af\03cc\03cd\03ce\03b1\03b2\03b3\03b4\03b5\03b6\03b7\03b8\03b9\03ba\03bb\03bc\03bd\03be\03bf\03c0\03c1\03c3\03c4\03c5\03c6\03c7\03c8\03c9\03ca\03cb\03d7\03d9\03db\03dd\03df\03e1\03e3\03e5\03e7\03e9\03eb\03ed\03ef\03b8\03f8\03f2\03fb\037b\037c\037d\0450\0451\0452\0453\0454\0455\0456\0457\0458\0459\045a\045b\045c\045d\045e\045f\0430\0431\0432\0433\0434\0435\0436\0437\0438\0439\043a\043b\043c\043d\043e\043f\0440\0441\0442\0443\0444\0445\0446\0447\0448\0449\044a\044b\044c\044d\044e\044f\0461\0463\0465\0467\0469\046b\046d\046f\0471\0473\0475\0477\0479\047b\047d\047f\0481\048b\048d\048f\0491\0493\0495\0497\0499\049b\049d\049f\04a1\04a3\04a5\04a7\04a9\04ab\04ad\04af\04b1\04b3\04b5\04b7\04b9\04bb\04bd\04bf\04cf\04c2\04c4\04c6\04c8\04ca\04cc\04ce\04d1\04d3\04d5\04d7\04d9\04db\04dd\04df\04e1\04e3\04e5\04e7\04e9\04eb\04ed\04ef\04f1\04f3\04f5\04f7\04f9\04fb\04fd\04ff') $$;
--> statement-breakpoint
ALTER TABLE "brands" drop column "search_text";
--> statement-breakpoint
ALTER TABLE "brands" ADD COLUMN "search_text" text GENERATED ALWAYS AS (search_fold(coalesce(code, '') || chr(31) || coalesce(name_en, '') || chr(31) || coalesce(name_ar, ''))) STORED NOT NULL;
--> statement-breakpoint
CREATE INDEX "brands_search_idx" ON "brands" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);
--> statement-breakpoint
ALTER TABLE "categories" drop column "search_text";
--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "search_text" text GENERATED ALWAYS AS (search_fold(coalesce(code, '') || chr(31) || coalesce(name_en, '') || chr(31) || coalesce(name_ar, '') || chr(31) || coalesce(description_en, '') || chr(31) || coalesce(description_ar, ''))) STORED NOT NULL;
--> statement-breakpoint
CREATE INDEX "categories_search_idx" ON "categories" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);
--> statement-breakpoint
ALTER TABLE "customers" drop column "search_text";
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "search_text" text GENERATED ALWAYS AS (search_fold(coalesce(code, '') || chr(31) || coalesce(name, '') || chr(31) || coalesce(phones_text, ''))) STORED NOT NULL;
--> statement-breakpoint
CREATE INDEX "customers_search_idx" ON "customers" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);
--> statement-breakpoint
ALTER TABLE "locations" drop column "search_text";
--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "search_text" text GENERATED ALWAYS AS (search_fold(coalesce(code, '') || chr(31) || coalesce(name_en, '') || chr(31) || coalesce(name_ar, '') || chr(31) || coalesce(address, ''))) STORED NOT NULL;
--> statement-breakpoint
CREATE INDEX "locations_search_idx" ON "locations" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);
--> statement-breakpoint
ALTER TABLE "measurement_units" drop column "search_text";
--> statement-breakpoint
ALTER TABLE "measurement_units" ADD COLUMN "search_text" text GENERATED ALWAYS AS (search_fold(coalesce(code, '') || chr(31) || coalesce(name_en, '') || chr(31) || coalesce(name_ar, '') || chr(31) || coalesce(symbol, ''))) STORED NOT NULL;
--> statement-breakpoint
CREATE INDEX "measurement_units_search_idx" ON "measurement_units" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);
--> statement-breakpoint
ALTER TABLE "product_tags" drop column "search_text";
--> statement-breakpoint
ALTER TABLE "product_tags" ADD COLUMN "search_text" text GENERATED ALWAYS AS (search_fold(coalesce(code, '') || chr(31) || coalesce(name_en, '') || chr(31) || coalesce(name_ar, ''))) STORED NOT NULL;
--> statement-breakpoint
CREATE INDEX "product_tags_search_idx" ON "product_tags" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);
--> statement-breakpoint
ALTER TABLE "taxes" drop column "search_text";
--> statement-breakpoint
ALTER TABLE "taxes" ADD COLUMN "search_text" text GENERATED ALWAYS AS (search_fold(coalesce(code, '') || chr(31) || coalesce(title_en, '') || chr(31) || coalesce(title_ar, '') || chr(31) || coalesce(country, ''))) STORED NOT NULL;
--> statement-breakpoint
CREATE INDEX "taxes_search_idx" ON "taxes" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);
--> statement-breakpoint
ALTER TABLE "waste_categories" drop column "search_text";
--> statement-breakpoint
ALTER TABLE "waste_categories" ADD COLUMN "search_text" text GENERATED ALWAYS AS (search_fold(coalesce(code, '') || chr(31) || coalesce(name_en, '') || chr(31) || coalesce(name_ar, '') || chr(31) || coalesce(description_en, '') || chr(31) || coalesce(description_ar, ''))) STORED NOT NULL;
--> statement-breakpoint
CREATE INDEX "waste_categories_search_idx" ON "waste_categories" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);
--> statement-breakpoint
ALTER TABLE "products" drop column "search_text";
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_text" text GENERATED ALWAYS AS (search_fold(coalesce(code, '') || chr(31) || coalesce(name_en, '') || chr(31) || coalesce(name_ar, '') || chr(31) || coalesce(variant_codes, ''))) STORED NOT NULL;
--> statement-breakpoint
CREATE INDEX "products_search_idx" ON "products" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);
--> statement-breakpoint
ALTER TABLE "variation_types" drop column "search_text";
--> statement-breakpoint
ALTER TABLE "variation_types" ADD COLUMN "search_text" text GENERATED ALWAYS AS (search_fold(coalesce(code, '') || chr(31) || coalesce(name_en, '') || chr(31) || coalesce(name_ar, ''))) STORED NOT NULL;
--> statement-breakpoint
CREATE INDEX "variation_types_search_idx" ON "variation_types" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);
--> statement-breakpoint
ALTER TABLE "variation_values" drop column "search_text";
--> statement-breakpoint
ALTER TABLE "variation_values" ADD COLUMN "search_text" text GENERATED ALWAYS AS (search_fold(coalesce(code, '') || chr(31) || coalesce(name_en, '') || chr(31) || coalesce(name_ar, ''))) STORED NOT NULL;
--> statement-breakpoint
CREATE INDEX "variation_values_search_idx" ON "variation_values" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);
