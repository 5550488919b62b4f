import {
  type FormField,
  formDefaultValues,
  listFormFields,
  type ResourceDefinition,
  weekdays,
} from '@dukkan/contract';
import { unique } from './workspaces.ts';

/**
 * A valid input of a resource; `records` maps a resource key to a record of the workspace it is
 * sent to (a location names its brand, a variation value its type). Inputs of different
 * `variant`s differ in every sortable field, in orders where a byte-wise sort and a linguistic one
 * disagree, and every searched text carries a value of its own.
 */
export type SampleInput = (records?: Record<string, string>, variant?: number) => Record<string, unknown>;

/** Where a resource's sample is given when its form cannot make one. */
const samplesFile = 'apps/server/test/helpers/catalogue-samples.ts';

/** Byte-wise these sort Banana, Zulu, apple, cherry, zebra, Émile, ångström; linguistically apple, ångström, Banana… */
export const words = ['cherry', 'Zulu', 'apple', 'Émile', 'Banana', 'zebra', 'ångström'];
/** Arabic words, one missing: an Arabic reader sorts that record by its English text. */
export const arabicWords = ['تمر', 'أحمد', undefined, 'باب', 'ياسمين', 'ثوم', 'جبن'];
export const pick = <T>(list: readonly T[], variant: number) => list[variant % list.length]!;
/** A day of its own per variant, long past (`year` to `year + 6`). */
const day = (year: number, variant: number) =>
  `${year + ((variant * 5) % 7)}-0${1 + (variant % 9)}-1${variant % 9}`;
/** A phone number of its own: 05 and nine digits. */
const phone = () => `05${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

/** Countries, currencies and time zones a select of them may be given, by variant. */
const computedChoices = {
  countries: ['SA', 'EG', 'AE', 'FR', 'DE', 'BH'],
  currencies: ['SAR', 'USD', 'EUR', 'AED', 'GBP', 'KWD'],
  timeZones: ['Africa/Cairo', 'Asia/Riyadh', 'Europe/Paris', 'Asia/Dubai', 'Europe/Berlin', 'Asia/Bahrain'],
} as const;

/** A number field's values, as parts of its range: none at an end, all different. */
const numberParts = [0.15, 0.05, 0.145, 0.02, 0.9, 0.07];

/**
 * What a text box may hold, tried in turn until the form's schema takes it: free text of its own,
 * then an email address, then a phone number (a box the schema checks as one of those).
 */
const textCandidates = [
  (field: string, variant: number) => `${pick(words, variant)} ${field} ${unique('')}`,
  (_field: string, variant: number) =>
    `${pick(['cherry', 'zulu', 'apple', 'emile', 'banana', 'zebra'], variant)}.${unique('')}@example.com`,
  () => phone(),
];

/** The last part of a field's name: `name` for `name.en`. */
const baseName = (field: FormField) => field.name.split('.')[0]!;

/** A form value of one field, by its kind; `attempt` picks a text box's candidate. */
function fieldValue(field: FormField, records: Record<string, string>, variant: number, attempt: number) {
  switch (field.type) {
    case 'text':
      if (field.locale === 'ar') {
        const word = pick(arabicWords, variant);
        return word ? `${word} ${unique('')}` : '';
      }
      if (field.locale === 'en') return `${pick(words, variant)} ${baseName(field)} ${unique('')}`;
      // A text read left to right (a code): one word and a tag of its own.
      if (field.ltr && attempt === 0) return `${pick(words, variant)}-${unique('')}`;
      return textCandidates[Math.min(attempt, textCandidates.length - 1)]!(field.name, variant);
    case 'select':
    case 'radio': {
      const source = field.optionSource;
      let value: string | undefined;
      if (field.options && field.options.length > 0) value = pick(field.options, variant).value;
      else if (source?.kind === 'resource') {
        // A tree's parent is left empty (a record of the tree names none); a required reference
        // names the record of its resource given in `records`.
        value = source.parentField ? undefined : field.required ? records[source.resource] : undefined;
      } else if (source) value = pick(computedChoices[source.kind], variant);
      if (field.isMulti) return value === undefined ? [] : [value];
      return value ?? '';
    }
    case 'number':
    case 'slider': {
      const min = field.defaultMin ?? 0;
      const max = field.defaultMax ?? 1000;
      const step = field.step && field.step > 0 ? field.step : 1;
      return Math.round((min + (max - min) * pick(numberParts, variant)) / step) * step;
    }
    case 'date':
      return day(2010, variant);
    case 'time':
      return `${String(8 + (variant % 9)).padStart(2, '0')}:00`;
    case 'phone':
      return { label: 'Front', number: phone() };
    case 'phoneNums':
      return [{ label: field.numbersOnly ? '' : 'Front', number: phone() }];
    case 'workingHours':
      return {
        ...Object.fromEntries(
          weekdays.map((weekday) => [weekday, { closed: true, opensAt: '', closesAt: '' }]),
        ),
        [pick(weekdays, variant)]: { closed: false, opensAt: '09:00', closesAt: '17:00' },
      };
    default:
      // Images, files, passwords and lines start empty, as on a new record's form.
      return undefined;
  }
}

function writePath(values: Record<string, unknown>, path: string, value: unknown) {
  const keys = path.split('.');
  const last = keys.pop()!;
  let node = values;
  for (const key of keys) {
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  node[last] = value;
}

/**
 * A resource's sample made from its declared form: a value per field kind (above), shaped into
 * the create input by the form's own schema, without the fields an update does not take
 * (`createOnly`) and those the input does not have. Throws, naming the place to give one, when
 * the resource has no form or its schema refuses what the fields made.
 */
export function derivedSample(definition: ResourceDefinition): SampleInput {
  const { form } = definition;
  return (records = {}, variant = 0) => {
    if (!form) {
      throw new Error(
        `No sample for resource ${definition.key}: it declares no form to make one from; give one in ${samplesFile}`,
      );
    }
    const fields = listFormFields(form.fields).filter((field) => !field.createOnly);
    const attempts = new Map<string, number>();
    for (let round = 0; round < textCandidates.length; round++) {
      const values: Record<string, unknown> = {};
      for (const field of fields) {
        const value = fieldValue(field, records, variant, attempts.get(field.name) ?? 0);
        if (value !== undefined) writePath(values, field.name, value);
      }
      const parsed = form.schema.safeParse(formDefaultValues(fields, values));
      if (parsed.success) {
        const input = parsed.data as Record<string, unknown>;
        const created = definition.schemas.create.shape;
        return Object.fromEntries(Object.entries(input).filter(([field]) => field in created));
      }
      // A text box the schema refused gets its next kind of value.
      const refused = new Set(parsed.error.issues.map((issue) => issue.path.join('.')));
      const retried = fields.filter(
        (field) =>
          field.type === 'text' && !field.locale && [...refused].some((path) => path.startsWith(field.name)),
      );
      if (retried.length === 0 || round === textCandidates.length - 1) {
        const issues = parsed.error.issues
          .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
          .join(', ');
        throw new Error(
          `No sample for resource ${definition.key}: its form's schema refuses the values made from its fields (${issues}); give one in ${samplesFile}`,
        );
      }
      for (const field of retried) attempts.set(field.name, (attempts.get(field.name) ?? 0) + 1);
    }
    throw new Error(`No sample for resource ${definition.key}; give one in ${samplesFile}`);
  };
}
