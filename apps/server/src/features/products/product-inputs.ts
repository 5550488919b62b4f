import {
  checkVariantCount,
  type LocalizedText,
  type ProductOption,
  type ValidationIssue,
  type VariantOption,
  validationCodes,
} from '@dukkan/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { productTags, variationTypes, variationValues } from '../../db/schema/index.ts';
import type { HookContext } from '../../resource-engine/storage.ts';

/** A stored name as the contract's localized text (a name may be in one language only). */
export function localizedText(nameEn: string | null, nameAr: string | null): LocalizedText {
  return [
    ...(nameEn ? [{ locale: 'en', value: nameEn }] : []),
    ...(nameAr ? [{ locale: 'ar', value: nameAr }] : []),
  ];
}

/**
 * The product's tags must be the workspace's product tags: one query, REFERENCE_NOT_FOUND at
 * `tagIds.<i>` for each that is not (another workspace's tag is refused like a missing one).
 */
export async function tagIssues({ db, workspaceId }: HookContext, tagIds: readonly string[]) {
  if (tagIds.length === 0) return [];
  const found = new Set(
    (
      await db
        .select({ id: productTags.id })
        .from(productTags)
        .where(and(eq(productTags.workspaceId, workspaceId), inArray(productTags.id, [...new Set(tagIds)])))
    ).map((row) => row.id),
  );
  return tagIds.flatMap((id, index): ValidationIssue[] =>
    found.has(id) ? [] : [{ path: `tagIds.${index}`, message: validationCodes.REFERENCE_NOT_FOUND }],
  );
}

/** The chosen options with the names the variants' titles are made of, or the reasons to refuse them. */
type ResolvedOptions =
  | { ok: true; options: VariantOption[]; stored: ProductOption[] }
  | { ok: false; issues: ValidationIssue[] };

/**
 * Checks a product's chosen options against the workspace (two queries, whatever their number):
 * each type the workspace's (REFERENCE_NOT_FOUND) and chosen once (OPTION_REPEATED), each value
 * one of the workspace's values (REFERENCE_NOT_FOUND) and of that type (VALUE_NOT_OF_TYPE).
 * Then the count of combinations against the limit (TOO_MANY_VARIANTS with `{ count, max }`),
 * counted without building one. A value chosen twice in one option is one choice.
 */
export async function resolveOptions(
  { db, workspaceId }: HookContext,
  chosen: readonly ProductOption[],
): Promise<ResolvedOptions> {
  if (chosen.length === 0) return { ok: true, options: [], stored: [] };
  const typeIds = [...new Set(chosen.map((option) => option.typeId))];
  const valueIds = [...new Set(chosen.flatMap((option) => option.valueIds))];
  const types = new Map(
    (
      await db
        .select({ id: variationTypes.id, nameEn: variationTypes.nameEn, nameAr: variationTypes.nameAr })
        .from(variationTypes)
        .where(and(eq(variationTypes.workspaceId, workspaceId), inArray(variationTypes.id, typeIds)))
    ).map((type) => [type.id, type]),
  );
  const values = new Map(
    (
      await db
        .select({
          id: variationValues.id,
          typeId: variationValues.typeId,
          nameEn: variationValues.nameEn,
          nameAr: variationValues.nameAr,
        })
        .from(variationValues)
        .where(and(eq(variationValues.workspaceId, workspaceId), inArray(variationValues.id, valueIds)))
    ).map((value) => [value.id, value]),
  );

  const issues: ValidationIssue[] = [];
  const seenTypes = new Set<string>();
  const options: VariantOption[] = [];
  const stored: ProductOption[] = [];
  chosen.forEach((option, index) => {
    const type = types.get(option.typeId);
    if (!type) {
      issues.push({ path: `options.${index}.typeId`, message: validationCodes.REFERENCE_NOT_FOUND });
      return;
    }
    if (seenTypes.has(type.id)) {
      issues.push({ path: `options.${index}.typeId`, message: validationCodes.OPTION_REPEATED });
      return;
    }
    seenTypes.add(type.id);
    const uniqueValueIds = [...new Set(option.valueIds)];
    option.valueIds.forEach((valueId, valueIndex) => {
      const value = values.get(valueId);
      const path = `options.${index}.valueIds.${valueIndex}`;
      if (!value) issues.push({ path, message: validationCodes.REFERENCE_NOT_FOUND });
      else if (value.typeId !== type.id) issues.push({ path, message: validationCodes.VALUE_NOT_OF_TYPE });
    });
    stored.push({ typeId: type.id, valueIds: uniqueValueIds });
    options.push({
      id: type.id,
      name: localizedText(type.nameEn, type.nameAr),
      values: uniqueValueIds.flatMap((valueId) => {
        const value = values.get(valueId);
        return value ? [{ id: value.id, value: localizedText(value.nameEn, value.nameAr) }] : [];
      }),
    });
  });

  const count = checkVariantCount(options);
  if (!count.ok) {
    issues.push({
      path: 'options',
      message: validationCodes.TOO_MANY_VARIANTS,
      params: { count: count.count, max: count.max },
    });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, options, stored };
}
