/**
 * Messages of the shared schemas are these codes, not prose: the server returns them in
 * `issues[].message` and the web translates them (`validation.<CODE>` in en.json / ar.json).
 */
export const validationCodes = {
  NAME_IS_REQUIRED: 'NAME_IS_REQUIRED',
  NAME_TOO_LONG: 'NAME_TOO_LONG',
  EMAIL_IS_INVALID: 'EMAIL_IS_INVALID',
  EMAIL_TOO_LONG: 'EMAIL_TOO_LONG',
  PHONE_IS_REQUIRED: 'PHONE_IS_REQUIRED',
  PHONE_IS_INVALID: 'PHONE_IS_INVALID',
  PHONE_TOO_SHORT: 'PHONE_TOO_SHORT',
  PHONE_TOO_LONG: 'PHONE_TOO_LONG',
  COMPANY_NAME_IS_REQUIRED: 'COMPANY_NAME_IS_REQUIRED',
  COMPANY_NAME_TOO_LONG: 'COMPANY_NAME_TOO_LONG',
  URL_IS_INVALID: 'URL_IS_INVALID',
  BUSINESS_CATEGORY_IS_REQUIRED: 'BUSINESS_CATEGORY_IS_REQUIRED',
  HOW_DID_YOU_HEAR_IS_REQUIRED: 'HOW_DID_YOU_HEAR_IS_REQUIRED',
  CAPTCHA_FAILED: 'CAPTCHA_FAILED',
  PASSWORD_IS_REQUIRED: 'PASSWORD_IS_REQUIRED',
  PASSWORD_TOO_SHORT: 'PASSWORD_TOO_SHORT',
  PASSWORD_TOO_LONG: 'PASSWORD_TOO_LONG',
  PASSWORD_TOO_WEAK: 'PASSWORD_TOO_WEAK',
  /** A listed common password or a trivial variant of one (the server checks it). */
  PASSWORD_TOO_COMMON: 'PASSWORD_TOO_COMMON',
  CONFIRM_PASSWORD_IS_REQUIRED: 'CONFIRM_PASSWORD_IS_REQUIRED',
  PASSWORDS_DO_NOT_MATCH: 'PASSWORDS_DO_NOT_MATCH',
  TOKEN_IS_REQUIRED: 'TOKEN_IS_REQUIRED',
  TOKEN_IS_INVALID: 'TOKEN_IS_INVALID',
  CURRENT_PASSWORD_IS_INCORRECT: 'CURRENT_PASSWORD_IS_INCORRECT',
  /** An authenticator app's code that is not six digits, or not the current one. */
  ONE_TIME_CODE_IS_INVALID: 'ONE_TIME_CODE_IS_INVALID',
  /** A recovery code that is not one of the person's unused codes. */
  RECOVERY_CODE_IS_INVALID: 'RECOVERY_CODE_IS_INVALID',
  /** A passkey's answer that does not verify (another site's, a replay, an unknown key). */
  PASSKEY_IS_INVALID: 'PASSKEY_IS_INVALID',
  /** The second step of a sign-in (or an enrolment) took too long, or was never started. */
  SECOND_STEP_EXPIRED: 'SECOND_STEP_EXPIRED',
  USER_NOT_FOUND: 'USER_NOT_FOUND',
  LANGUAGE_IS_INVALID: 'LANGUAGE_IS_INVALID',
  /** A text holding a character no field may store (U+0000). */
  TEXT_IS_INVALID: 'TEXT_IS_INVALID',
  /** A number the database cannot hold at its column's precision (a value the schemas let through). */
  VALUE_OUT_OF_RANGE: 'VALUE_OUT_OF_RANGE',
  /** A value the database refused to store otherwise (a data exception, a check constraint). */
  VALUE_CANNOT_BE_STORED: 'VALUE_CANNOT_BE_STORED',
  /**
   * A value no schema message names (a wrong type, an unknown field): what the server answers in
   * place of a library's own English text.
   */
  VALUE_IS_INVALID: 'VALUE_IS_INVALID',
  /** The status of a member who has not yet accepted their invitation (acceptance sets it). */
  INVITED_MEMBER_STATUS: 'INVITED_MEMBER_STATUS',
  /** A bulk body that is not a list of rows, or an empty one. */
  BULK_ROWS_ARE_REQUIRED: 'BULK_ROWS_ARE_REQUIRED',
  /** A bulk body of more rows than `maxBulkRows`. */
  TOO_MANY_BULK_ROWS: 'TOO_MANY_BULK_ROWS',
  CODE_IS_REQUIRED: 'CODE_IS_REQUIRED',
  CODE_TOO_LONG: 'CODE_TOO_LONG',
  CODE_MUST_BE_UNIQUE: 'CODE_MUST_BE_UNIQUE',
  VALUE_MUST_BE_UNIQUE: 'VALUE_MUST_BE_UNIQUE',
  TITLE_IS_REQUIRED: 'TITLE_IS_REQUIRED',
  TITLE_TOO_LONG: 'TITLE_TOO_LONG',
  TITLE_LOCALE_REPEATED: 'TITLE_LOCALE_REPEATED',
  PERMISSION_IS_INVALID: 'PERMISSION_IS_INVALID',
  ROLE_IS_REQUIRED: 'ROLE_IS_REQUIRED',
  ROLE_IN_USE: 'ROLE_IN_USE',
  LAST_ADMIN: 'LAST_ADMIN',
  WORKSPACE_ID_IS_REQUIRED: 'WORKSPACE_ID_IS_REQUIRED',
  ALREADY_A_MEMBER: 'ALREADY_A_MEMBER',
  NAME_LOCALE_REPEATED: 'NAME_LOCALE_REPEATED',
  DESCRIPTION_IS_REQUIRED: 'DESCRIPTION_IS_REQUIRED',
  DESCRIPTION_TOO_LONG: 'DESCRIPTION_TOO_LONG',
  DESCRIPTION_LOCALE_REPEATED: 'DESCRIPTION_LOCALE_REPEATED',
  SYMBOL_IS_REQUIRED: 'SYMBOL_IS_REQUIRED',
  SYMBOL_TOO_LONG: 'SYMBOL_TOO_LONG',
  CURRENCY_IS_INVALID: 'CURRENCY_IS_INVALID',
  /** An exchange rate for the workspace's base currency itself (always 1). */
  CURRENCY_IS_BASE: 'CURRENCY_IS_BASE',
  /** A new base currency without an exchange rate, while there are rates to convert through it. */
  BASE_CURRENCY_HAS_NO_RATE: 'BASE_CURRENCY_HAS_NO_RATE',
  /** A new base currency that would turn a rate into one too small or too large to keep. */
  RATE_OUT_OF_RANGE: 'RATE_OUT_OF_RANGE',
  WORKSPACE_NAME_IS_REQUIRED: 'WORKSPACE_NAME_IS_REQUIRED',
  WORKSPACE_NAME_TOO_LONG: 'WORKSPACE_NAME_TOO_LONG',
  /** A workspace time zone that is no IANA zone the server knows (`canonicalTimeZone`). */
  TIME_ZONE_IS_INVALID: 'TIME_ZONE_IS_INVALID',
  /** How long a workspace keeps its audit log: a whole number of days from 1 to 3,650. */
  AUDIT_RETENTION_OUT_OF_RANGE: 'AUDIT_RETENTION_OUT_OF_RANGE',
  COUNTRY_IS_INVALID: 'COUNTRY_IS_INVALID',
  TAX_RATE_OUT_OF_RANGE: 'TAX_RATE_OUT_OF_RANGE',
  RATE_MUST_BE_POSITIVE: 'RATE_MUST_BE_POSITIVE',
  DATE_IS_INVALID: 'DATE_IS_INVALID',
  WORKING_HOURS_INVALID: 'WORKING_HOURS_INVALID',
  /** An open day with a closing time and no opening time. */
  OPENING_TIME_REQUIRED: 'OPENING_TIME_REQUIRED',
  /** An open day with an opening time and no closing time. */
  CLOSING_TIME_REQUIRED: 'CLOSING_TIME_REQUIRED',
  DAY_REPEATED: 'DAY_REPEATED',
  PHONES_REQUIRED: 'PHONES_REQUIRED',
  LABEL_IS_REQUIRED: 'LABEL_IS_REQUIRED',
  LABEL_TOO_LONG: 'LABEL_TOO_LONG',
  ADDRESS_TOO_LONG: 'ADDRESS_TOO_LONG',
  BRAND_IS_REQUIRED: 'BRAND_IS_REQUIRED',
  REFERENCE_NOT_FOUND: 'REFERENCE_NOT_FOUND',
  /** A new reference to a disabled record (a reference already stored may stay). */
  REFERENCE_IS_DISABLED: 'REFERENCE_IS_DISABLED',
  RECORD_IN_USE: 'RECORD_IN_USE',
  /** A subscription event needs a plan (subscribe, renew, change plan). */
  PLAN_IS_REQUIRED: 'PLAN_IS_REQUIRED',
  /** A subscription event its state does not allow (409); params `{ reason }`, one of `subscriptionRefusals`. */
  SUBSCRIPTION_EVENT_REFUSED: 'SUBSCRIPTION_EVENT_REFUSED',
  /** Starting a free trial of an application that has none. */
  NO_FREE_TRIAL: 'NO_FREE_TRIAL',
  /** A checkout started for an invoice that is no longer waiting for its payment (paid or failed). */
  INVOICE_NOT_PENDING: 'INVOICE_NOT_PENDING',
  /** The payment provider could not start a checkout (unreachable, or it refused). */
  CHECKOUT_UNAVAILABLE: 'CHECKOUT_UNAVAILABLE',
  /**
   * An invoice the payment provider cannot charge exactly (Stripe: a three-decimal currency's
   * amount not ending in 0); params `{ currency, step }`, the step in major units (0.01).
   */
  CHECKOUT_AMOUNT_UNSUPPORTED: 'CHECKOUT_AMOUNT_UNSUPPORTED',
  /** An application the workspace has not installed. */
  APPLICATION_NOT_INSTALLED: 'APPLICATION_NOT_INSTALLED',
  /** An application given by a non-admin who does not hold it themselves (403). */
  APPLICATION_NOT_HELD: 'APPLICATION_NOT_HELD',
  /** A non-admin changing their own applications (403), as they may not make themselves an admin. */
  OWN_APPLICATIONS_UNCHANGEABLE: 'OWN_APPLICATIONS_UNCHANGEABLE',
  /** A used record's delete refused naming its users; params `{ count, names }` (the first five). */
  RECORD_IN_USE_BY: 'RECORD_IN_USE_BY',
  /** A record of a tree placed under itself or one of its own descendants (a parent loop). */
  PARENT_IS_DESCENDANT: 'PARENT_IS_DESCENDANT',
  FILE_IS_REQUIRED: 'FILE_IS_REQUIRED',
  FILE_TYPE_NOT_ALLOWED: 'FILE_TYPE_NOT_ALLOWED',
  FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  TOO_MANY_FILES: 'TOO_MANY_FILES',
  /** An import's CSV is neither UTF-8 nor Windows-1256. */
  IMPORT_ENCODING_UNKNOWN: 'IMPORT_ENCODING_UNKNOWN',
  /** An import's file is over its size; params `{ max }` (megabytes). */
  IMPORT_FILE_TOO_LARGE: 'IMPORT_FILE_TOO_LARGE',
  /** An import's file has more rows than an import takes; params `{ max }`. */
  IMPORT_TOO_MANY_ROWS: 'IMPORT_TOO_MANY_ROWS',
  /** An XLSX whose unzipped content is over the limit; params `{ max }` (megabytes). */
  IMPORT_UNZIPPED_TOO_LARGE: 'IMPORT_UNZIPPED_TOO_LARGE',
  /** An XLSX the import cannot read (not a workbook, or no sheet). */
  IMPORT_FILE_UNREADABLE: 'IMPORT_FILE_UNREADABLE',
  /** An import's header row names a column the resource does not have; params `{ header }`. */
  IMPORT_COLUMN_UNKNOWN: 'IMPORT_COLUMN_UNKNOWN',
  /** An import's header row names the same column twice; params `{ header }`. */
  IMPORT_COLUMN_REPEATED: 'IMPORT_COLUMN_REPEATED',
  /** An import's file has no rows under its header. */
  IMPORT_FILE_EMPTY: 'IMPORT_FILE_EMPTY',
  /** A row of an import with the same key (code) as an earlier row; params `{ row }` (the earlier one). */
  IMPORT_ROW_REPEATED: 'IMPORT_ROW_REPEATED',
  /** An import's cell its column cannot read (a number, a date, working hours). */
  IMPORT_CELL_INVALID: 'IMPORT_CELL_INVALID',
  /** A reference's code that is no record of the workspace; params `{ code }`. */
  IMPORT_CODE_NOT_FOUND: 'IMPORT_CODE_NOT_FOUND',
  /** A row giving its record another value than an earlier row of the same record; params `{ row }` (the earlier one). */
  IMPORT_ROW_CONFLICT: 'IMPORT_ROW_CONFLICT',
  /** A variant row's value that its variation type does not have; params `{ value, type }`. */
  IMPORT_VALUE_NOT_FOUND: 'IMPORT_VALUE_NOT_FOUND',
  /** A variant row names a value of a type the product's variants are not made of; params `{ type }`. */
  IMPORT_TYPE_NOT_OF_PRODUCT: 'IMPORT_TYPE_NOT_OF_PRODUCT',
  /** A variant row without a value of one of its product's types; params `{ type }`. */
  IMPORT_VARIANT_VALUE_MISSING: 'IMPORT_VARIANT_VALUE_MISSING',
  /** A SKU or barcode on a row that names no variant (no value of any type). */
  IMPORT_VARIANT_VALUES_REQUIRED: 'IMPORT_VARIANT_VALUES_REQUIRED',
  /** Rows that would create records without the add permission; params `{ rows }`. */
  IMPORT_CREATE_NOT_ALLOWED: 'IMPORT_CREATE_NOT_ALLOWED',
  /** Rows that would change records without the edit permission; params `{ rows }`. */
  IMPORT_UPDATE_NOT_ALLOWED: 'IMPORT_UPDATE_NOT_ALLOWED',
  /** An import's job stopped before it ended (its server restarted): nothing was changed. */
  IMPORT_JOB_INTERRUPTED: 'IMPORT_JOB_INTERRUPTED',
  /** An import's job had ended, or its file was removed, before the cancel or the run came. */
  IMPORT_JOB_ENDED: 'IMPORT_JOB_ENDED',
  /** The workspace's uploads would pass its storage quota (UPLOAD_QUOTA_BYTES). */
  UPLOAD_QUOTA_EXCEEDED: 'UPLOAD_QUOTA_EXCEEDED',
  /** A product's chosen values make more combinations than it may have; params `{ count, max }`. */
  TOO_MANY_VARIANTS: 'TOO_MANY_VARIANTS',
  /** The same value text twice in one variation type. */
  VALUE_REPEATED: 'VALUE_REPEATED',
  /** A line of a new type's values box naming two values in one language (`Small | Large`). */
  VALUE_LINE_IS_INVALID: 'VALUE_LINE_IS_INVALID',
  /** More values created with a type than `maxValuesWithType`. */
  TOO_MANY_NEW_VALUES: 'TOO_MANY_NEW_VALUES',
  /** A variant's SKU another variant of the workspace (or of the same request) has. */
  SKU_MUST_BE_UNIQUE: 'SKU_MUST_BE_UNIQUE',
  SKU_TOO_LONG: 'SKU_TOO_LONG',
  /** Not a UPC-A, EAN-13, EAN-8 or GTIN-14 with a right check digit. */
  BARCODE_IS_INVALID: 'BARCODE_IS_INVALID',
  BARCODE_MUST_BE_UNIQUE: 'BARCODE_MUST_BE_UNIQUE',
  MEASUREMENT_UNIT_IS_REQUIRED: 'MEASUREMENT_UNIT_IS_REQUIRED',
  /** A variant edit or recipe line naming a variant the product does not have. */
  VARIANT_NOT_FOUND: 'VARIANT_NOT_FOUND',
  QUANTITY_MUST_BE_POSITIVE: 'QUANTITY_MUST_BE_POSITIVE',
  ORDER_TYPE_IS_INVALID: 'ORDER_TYPE_IS_INVALID',
  /** A recipe line using the product it belongs to. */
  RECIPE_USES_ITSELF: 'RECIPE_USES_ITSELF',
  /** Recipes using each other in a ring; params `{ cycle }`: the products' names joined by ' → '. */
  RECIPE_CYCLE: 'RECIPE_CYCLE',
  /** A variation type chosen twice for one product. */
  OPTION_REPEATED: 'OPTION_REPEATED',
  /** A chosen value that is not one of the chosen type's values. */
  VALUE_NOT_OF_TYPE: 'VALUE_NOT_OF_TYPE',
  /*
   * The limits of the schemas, one code per limit: its text names the limit (a form shows a field's
   * message without parameters). validation-messages.test.ts walks every schema for limits without one.
   */
  /** A recipe quantity under the smallest its column keeps (`recipeQuantityLimits.min`). */
  QUANTITY_TOO_SMALL: 'QUANTITY_TOO_SMALL',
  /** A recipe quantity at or above what its column holds (`recipeQuantityLimits.below`). */
  QUANTITY_TOO_LARGE: 'QUANTITY_TOO_LARGE',
  /**
   * A date after today: by the schemas, today wherever it is latest (UTC+14); by the server, today
   * in the workspace's time zone.
   */
  DATE_IN_FUTURE: 'DATE_IN_FUTURE',
  /** A price or cost that is not an amount: not a number, or not whole minor units on the wire. */
  MONEY_IS_INVALID: 'MONEY_IS_INVALID',
  MONEY_IS_NEGATIVE: 'MONEY_IS_NEGATIVE',
  /** More decimals than the workspace currency's minor unit has (12.505 EGP). */
  MONEY_TOO_MANY_DECIMALS: 'MONEY_TOO_MANY_DECIMALS',
  /** More than a price column keeps (`maxMoneyMinorUnits`). */
  MONEY_TOO_LARGE: 'MONEY_TOO_LARGE',
  /** A base currency change with prices to convert but no exchange rate for the new base. */
  PRICES_NEED_A_RATE: 'PRICES_NEED_A_RATE',
  /** `active` or `inactive`. */
  STATUS_IS_INVALID: 'STATUS_IS_INVALID',
  /** An image field that takes one image given several. */
  ONE_IMAGE_ONLY: 'ONE_IMAGE_ONLY',
  TOO_MANY_CURRENCIES: 'TOO_MANY_CURRENCIES',
  /** More permissions than there are: one chosen twice. */
  PERMISSION_REPEATED: 'PERMISSION_REPEATED',
  TOO_MANY_APPLICATIONS: 'TOO_MANY_APPLICATIONS',
  POSITION_OUT_OF_RANGE: 'POSITION_OUT_OF_RANGE',
  CUSTOMER_SOURCE_IS_INVALID: 'CUSTOMER_SOURCE_IS_INVALID',
  /** A subscription event that is not one of `workspaceSubscriptionEvents`. */
  SUBSCRIPTION_EVENT_IS_INVALID: 'SUBSCRIPTION_EVENT_IS_INVALID',
  TOO_MANY_TAGS: 'TOO_MANY_TAGS',
  TOO_MANY_IMAGES: 'TOO_MANY_IMAGES',
  /** A product using more variation types than `maxProductOptions`. */
  TOO_MANY_OPTIONS: 'TOO_MANY_OPTIONS',
  /** A chosen variation type without any of its values. */
  VALUES_REQUIRED: 'VALUES_REQUIRED',
  /** More values of one type than a product may have variants. */
  TOO_MANY_VALUES: 'TOO_MANY_VALUES',
  /** More variant edits in one save than a product may have variants. */
  TOO_MANY_VARIANT_EDITS: 'TOO_MANY_VARIANT_EDITS',
  TOO_MANY_RECIPE_LINES: 'TOO_MANY_RECIPE_LINES',
  /** More order types than there are: one chosen twice. */
  ORDER_TYPE_REPEATED: 'ORDER_TYPE_REPEATED',
  TOO_MANY_BRANDS: 'TOO_MANY_BRANDS',
  /** A list's `page`: a whole number from 1 to 1,000,000. */
  PAGE_IS_INVALID: 'PAGE_IS_INVALID',
  /** A list's `pageSize`: a whole number from 1 to `maxPageSize`. */
  PAGE_SIZE_IS_INVALID: 'PAGE_SIZE_IS_INVALID',
  SEARCH_TOO_LONG: 'SEARCH_TOO_LONG',
  /** A list's `sort` that is not one of its resource's sorts. */
  SORT_IS_INVALID: 'SORT_IS_INVALID',
  /** A list filter's value that is not one of its choices (or no value at all). */
  FILTER_IS_INVALID: 'FILTER_IS_INVALID',
  /** A list filter given more values than it takes. */
  FILTER_TOO_LONG: 'FILTER_TOO_LONG',
} as const;
export type ValidationCode = keyof typeof validationCodes;
