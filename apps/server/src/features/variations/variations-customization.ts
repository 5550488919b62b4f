import {
  comparableValueText,
  deriveValueCodes,
  type LocalizedName,
  type NewTypeValue,
  validationCodes,
  valueCodeCandidate,
  variationValuesResource,
} from '@dukkan/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { auditEntry, recordAudit } from '../../db/audit-log.ts';
import {
  products,
  productVariants,
  productVariantValues,
  variationTypes,
  variationValues,
} from '../../db/schema/index.ts';
import { sortCollation } from '../../db/schema/sorting.ts';
import { lockUntilCommit } from '../../db/transaction-lock.ts';
import { validationError } from '../../errors.ts';
import { inUseNamesShown } from '../../resource-engine/data.ts';
import type {
  HookContext,
  RecordUsers,
  ResourceCustomization,
  ResourceHooks,
  ResourceRow,
} from '../../resource-engine/storage.ts';

/** Both drivers answer `db.execute` with `{ rows }`. */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** A value's texts as they are compared within its type: trimmed, case-folded, either language. */
const comparable = comparableValueText;

/**
 * A type's writes of values wait for each other: two values with the same text, or two new values
 * both taking the last place, cannot pass the checks side by side. A type has few values, so
 * writes of one type are rare enough to queue.
 */
async function lockType({ db, workspaceId }: HookContext, typeId: string) {
  await lockUntilCommit(db, `variation_values:${workspaceId}`, typeId);
}

/** Of `codes`, those a variation value of the workspace already has (read through the unique code index). */
async function storedValueCodes({ db, workspaceId }: HookContext, codes: readonly string[]) {
  if (codes.length === 0) return new Set<string>();
  const collated = sql`${variationValues.code} collate ${sql.identifier(sortCollation)}`;
  const rows = await db
    .select({ code: variationValues.code })
    .from(variationValues)
    .where(
      sql`${variationValues.workspaceId} = ${workspaceId} and ${collated} = any(${sql.param(codes)}::text[])`,
    );
  return new Set(rows.map((row) => row.code));
}

/**
 * The codes `count` new values of a type get when none is typed (`deriveValueCodes`: SIZE-01,
 * SIZE-02…): the first numbers whose code no value of the workspace has, nor `reserved` (codes the
 * same write types). Candidates are looked up a window at a time through the unique code index;
 * the window doubles until it holds enough free ones. The caller holds the type's lock, so writes
 * of one type's values derive one after the other.
 */
async function derivedValueCodes(
  context: HookContext,
  typeCode: string,
  count: number,
  reserved: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  if (count === 0) return [];
  for (let window = count + 16; ; window *= 2) {
    const candidates = Array.from({ length: window }, (_, index) => valueCodeCandidate(typeCode, index + 1));
    const taken = await storedValueCodes(context, candidates);
    const codes = deriveValueCodes(typeCode, [...taken, ...reserved], count);
    const looked = new Set(candidates);
    if (codes.every((code) => looked.has(code))) return codes;
  }
}

/** The stored code of a type of the workspace (the engine has checked that it is one). */
async function typeCodeOf({ db, workspaceId }: HookContext, typeId: string): Promise<string> {
  const rows = rowsOf<{ code: string }>(
    await db.execute(
      sql`select code from ${variationTypes} where workspace_id = ${workspaceId} and id = ${typeId}`,
    ),
  );
  return rows[0]!.code;
}

/**
 * Gives a value saved without a code (a create without one, an update that empties it) the next
 * code derived from its type's; refuses a value whose text another value of its type already has,
 * in either language (a reader of one language sees a value named only in the other by that
 * name); then places a new value, or one moved to another type, last in its type unless the input
 * gives its place. The texts are compared in JavaScript: `lower()` follows the database's ctype,
 * which folds only ASCII under C.
 */
async function checkValue(context: HookContext, input: Record<string, unknown>, existing?: ResourceRow) {
  const typeId = (input.typeId as string | undefined) ?? (existing?.typeId as string);
  const moved = existing !== undefined && input.typeId !== undefined && input.typeId !== existing.typeId;
  const names = input.name as LocalizedName | undefined;
  const derivesCode = existing ? input.code === '' : !input.code;
  // An update that keeps the texts, the type and the code (a new place, a status) has nothing to check.
  if (existing && !names && !moved && !derivesCode) return;
  await lockType(context, typeId);
  if (derivesCode) {
    [input.code] = await derivedValueCodes(context, await typeCodeOf(context, typeId), 1);
  }
  if (existing && !names && !moved) return;

  const texts = new Set(
    (names
      ? names.map((name) => comparable(name.value))
      : [comparable(existing?.nameEn as string), comparable(existing?.nameAr as string)]
    ).filter((text): text is string => text !== null),
  );
  const siblings = rowsOf<{ id: string; name_en: string | null; name_ar: string | null; position: number }>(
    await context.db.execute(sql`
      select id, name_en, name_ar, position from ${variationValues}
      where workspace_id = ${context.workspaceId} and type_id = ${typeId}`),
  ).filter((sibling) => sibling.id !== existing?.id);
  const repeated = siblings.some((sibling) =>
    [sibling.name_en, sibling.name_ar].some((text) => {
      const other = comparable(text);
      return other !== null && texts.has(other);
    }),
  );
  if (repeated) throw validationError([{ path: 'name', message: validationCodes.VALUE_REPEATED }]);

  if (input.position === undefined && (!existing || moved)) {
    input.position = siblings.reduce((last, sibling) => Math.max(last, Number(sibling.position) + 1), 0);
  }
}

/**
 * The products that use the values `values` selects (an SQL list of value ids): through a
 * variant made of one, or through the options they chose (which name the values before any
 * variant exists). Their count and the first five names in the reader's order, in one statement.
 */
async function productsUsing(
  { db, workspaceId, locale = 'en' }: HookContext,
  values: SQL,
  typeOption: SQL,
): Promise<RecordUsers> {
  const [first, second] = locale === 'ar' ? [sql`name_ar`, sql`name_en`] : [sql`name_en`, sql`name_ar`];
  const rows = rowsOf<{ total: number | string; name_en: string | null; name_ar: string | null }>(
    await db.execute(sql`
      select count(*) over () as total, name_en, name_ar from ${products}
      where workspace_id = ${workspaceId} and (
        exists (
          select 1 from ${productVariants} variant
          join ${productVariantValues} link
            on link.variant_id = variant.id and link.workspace_id = variant.workspace_id
          where variant.product_id = ${products.id} and variant.workspace_id = ${products.workspaceId}
            and link.value_id in (${values}))
        or options @> ${typeOption}::jsonb)
      order by coalesce(${first}, ${second}) collate ${sql.identifier(sortCollation)}, id
      limit ${inUseNamesShown}`),
  );
  return {
    count: Number(rows[0]?.total ?? 0),
    names: rows.map((row) => [
      ...(row.name_en ? [{ locale: 'en', value: row.name_en }] : []),
      ...(row.name_ar ? [{ locale: 'ar', value: row.name_ar }] : []),
    ]),
  };
}

const valueHooks: ResourceHooks = {
  beforeWrite: checkValue,
  usedBy: (context, value) =>
    productsUsing(
      context,
      sql`${value.id as string}::uuid`,
      sql`${JSON.stringify([{ valueIds: [value.id] }])}`,
    ),
};

/**
 * The values a new type is created with (`values`: their names already checked against each
 * other by the contract), written in the type's own transaction, in the order given: a typed code
 * another value of the workspace has is refused at `values.<index>.code`, and a value without one
 * gets the next code derived from the type's (`derivedValueCodes`). A refusal undoes the type too.
 */
async function writeNewValues(
  context: HookContext,
  typeId: string,
  typeCode: string,
  values: NewTypeValue[],
) {
  const typed = values.map((value) => value.code).filter((code): code is string => Boolean(code));
  const stored = await storedValueCodes(context, typed);
  const issues = values.flatMap((value, index) =>
    value.code && stored.has(value.code)
      ? [{ path: `values.${index}.code`, message: validationCodes.CODE_MUST_BE_UNIQUE }]
      : [],
  );
  if (issues.length > 0) throw validationError(issues);
  const derived = await derivedValueCodes(context, typeCode, values.length - typed.length, new Set(typed));
  let next = 0;
  const created = await context.db
    .insert(variationValues)
    .values(
      values.map((value, position) => ({
        workspaceId: context.workspaceId,
        typeId,
        code: value.code || derived[next++]!,
        nameEn: value.name.find((name) => name.locale === 'en')?.value ?? null,
        nameAr: value.name.find((name) => name.locale === 'ar')?.value ?? null,
        position,
      })),
    )
    .returning();
  // Each value is a record of its own: one create row each, beside the type's.
  await recordAudit(
    context.db,
    created.map((row) => valueAudit(context, row, null, row)),
  );
}

/** A value's audit entry (the variation values' resource), from its row before and after. */
const valueAudit = (
  context: HookContext,
  row: typeof variationValues.$inferSelect,
  before: typeof variationValues.$inferSelect | null,
  after: typeof variationValues.$inferSelect | null,
) => auditEntry(variationValues, context.workspaceId, variationValuesResource.key, row.id, before, after);

const typeHooks: ResourceHooks = {
  async afterWrite(context, id, input, _written, existing) {
    const values = input.values as NewTypeValue[] | undefined;
    if (existing || !values || values.length === 0) return;
    await writeNewValues(context, id, input.code as string, values);
  },
  // Deleting a type deletes its values (the key cascades): each value's delete is on the log, in
  // the type's transaction, which a product using one of them undoes with the rest (`usedBy`).
  async beforeDelete(context, type) {
    const values = await context.db
      .select()
      .from(variationValues)
      .where(
        and(
          eq(variationValues.workspaceId, context.workspaceId),
          eq(variationValues.typeId, type.id as string),
        ),
      )
      .orderBy(variationValues.position);
    await recordAudit(
      context.db,
      values.map((row) => valueAudit(context, row, row, null)),
    );
  },
  // Refused while a product uses any of its values.
  usedBy: (context, type) =>
    productsUsing(
      context,
      sql`select id from ${variationValues} where workspace_id = ${context.workspaceId} and type_id = ${type.id as string}`,
      sql`${JSON.stringify([{ typeId: type.id }])}`,
    ),
};

/**
 * What the variation resources add to their declarations: a type's record lists its values in
 * order (one aggregate per type, the values' own index), and a new type may be created with its
 * first values; a value's text is unique within its type, a new value goes last, and a value
 * saved without a code gets one derived from its type's; neither a value nor a type is deleted
 * while a product uses it.
 */
export const variationCustomizations: readonly ResourceCustomization[] = [
  {
    key: 'variationTypes',
    writtenByFeature: ['values'],
    computed: {
      values: sql`(select coalesce(json_agg(json_build_object(
          'id', v.id, 'code', v.code,
          'name', (select coalesce(json_agg(json_build_object('locale', n.locale, 'value', n.value)), '[]'::json)
                   from (values ('en', v.name_en), ('ar', v.name_ar)) as n(locale, value) where n.value is not null),
          'position', v.position, 'status', v.status)
        order by v.position, v.created_at), '[]'::json)
        from "variation_values" v
        where v.type_id = "variation_types"."id" and v.workspace_id = "variation_types"."workspace_id")`,
    },
    hooks: typeHooks,
  },
  { key: 'variationValues', hooks: valueHooks },
];
