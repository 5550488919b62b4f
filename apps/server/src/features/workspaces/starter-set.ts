import { type MeasurementUnitInput, measurementUnitInputSchema } from '@dukkan/contract';
import type { Database } from '../../db/client.ts';
import type { ResourceEngine } from '../../resource-engine/registry.ts';
import { systemCaller } from '../../resource-engine/storage.ts';

/**
 * The measurement units every new workspace starts with: those a shop sells or buys by — a
 * sweets shop by the kilogram, the piece, the box and the dozen, a grocery by the litre and the
 * pack. A unit has one symbol (its declaration's `symbol`), so the metric units have their
 * international one (kg, g, L, mL), read the same in both languages, and the counted ones a short
 * Latin one.
 */
export const starterUnits = [
  { code: 'PC', en: 'Piece', ar: 'قطعة', symbol: 'pc' },
  { code: 'KG', en: 'Kilogram', ar: 'كيلوجرام', symbol: 'kg' },
  { code: 'G', en: 'Gram', ar: 'جرام', symbol: 'g' },
  { code: 'L', en: 'Litre', ar: 'لتر', symbol: 'L' },
  { code: 'ML', en: 'Millilitre', ar: 'مليلتر', symbol: 'mL' },
  { code: 'BOX', en: 'Box', ar: 'علبة', symbol: 'box' },
  { code: 'DZ', en: 'Dozen', ar: 'دستة', symbol: 'dz' },
  { code: 'PK', en: 'Pack', ar: 'عبوة', symbol: 'pk' },
] as const;

type StarterUnitCode = (typeof starterUnits)[number]['code'];

/** A starter unit as the measurement units' create takes it. */
function starterUnitInput(unit: (typeof starterUnits)[number]): MeasurementUnitInput {
  return measurementUnitInputSchema.parse({
    code: unit.code,
    name: [
      { locale: 'en', value: unit.en },
      { locale: 'ar', value: unit.ar },
    ],
    symbol: unit.symbol,
  });
}

/**
 * Adds the starter units to a new workspace through the units' own create, as its admin would
 * (hooks run, codes checked): ordinary records, renamed, disabled or deleted like any other.
 * Returns their ids by code.
 */
export async function addStarterUnits(
  db: Database,
  resources: ResourceEngine,
  workspaceId: string,
): Promise<Record<StarterUnitCode, string>> {
  const created = await resources
    .data('measurementUnits')
    .create(db, systemCaller(workspaceId), starterUnits.map(starterUnitInput));
  return Object.fromEntries(created.map((record) => [String(record.code), String(record.id)])) as Record<
    StarterUnitCode,
    string
  >;
}
