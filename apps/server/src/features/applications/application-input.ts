import { clientIdPattern, limits, planDiscountsSchema } from '@dukkan/contract';
import { z } from 'zod';

/**
 * What the operator's command line sends to register or change an application. Plain English
 * messages: they are read in a terminal, never shown to a workspace.
 */

const clientIdSchema = z
  .string()
  .regex(clientIdPattern, 'must be 3 to 60 lowercase letters, digits or hyphens');

/** An absolute http(s) URL; redirect URIs also may not carry a fragment (RFC 6749 §3.1.2). */
function httpUrl(options: { fragment: boolean }) {
  return z.string().refine(
    (value) => {
      if (!URL.canParse(value)) return false;
      const url = new URL(value);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
      return options.fragment || !value.includes('#');
    },
    options.fragment
      ? 'must be an absolute http(s) URL'
      : 'must be an absolute http(s) URL without a fragment (#…)',
  );
}

const nameText = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(limits.name, `is over ${limits.name} characters`);
const descriptionText = z.string().trim().max(limits.long, `is over ${limits.long} characters`);

const knownCurrencies = new Set(Intl.supportedValuesOf('currency'));
const currencySchema = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code of three capital letters, e.g. EGP')
  .refine((code) => knownCurrencies.has(code), 'is not an ISO 4217 currency');

/** The redirect URIs, compared as exact strings by the portal: at least one, none twice. */
const redirectUrisSchema = z
  .array(httpUrl({ fragment: false }))
  .min(1, 'needs at least one redirect URI')
  .max(20, 'may list at most 20 redirect URIs')
  .refine((uris) => new Set(uris).size === uris.length, 'lists a redirect URI twice');

export const applicationInputSchema = z.strictObject({
  clientId: clientIdSchema,
  name: z.strictObject({ en: nameText, ar: nameText }),
  description: z.strictObject({ en: descriptionText, ar: descriptionText }).default({ en: '', ar: '' }),
  homeUrl: httpUrl({ fragment: true }),
  redirectUris: redirectUrisSchema,
  clientType: z.enum(['public', 'confidential']),
  currency: currencySchema,
  /** Integer minor units of `currency` (25000 = 250.00 EGP). */
  monthlyPricePerLocation: z.int('must be a whole number of minor units').min(0, 'may not be negative'),
  /** Basis points per plan length (1000 = 10 %). */
  discounts: planDiscountsSchema,
  trialDays: z.int('must be a whole number of days').min(0).max(365).default(0),
  /** A PNG, JPEG, WebP or SVG file on this machine; it is copied into file storage. */
  logo: z.string().min(1).optional(),
});
export type ApplicationInput = z.input<typeof applicationInputSchema>;

/**
 * A change of an application: any field but the client id (members' application lists and
 * client applications refer to it). `discounts` may name some plans only; `logo: null` removes it.
 */
export const applicationChangesSchema = z
  .strictObject({
    name: z.strictObject({ en: nameText, ar: nameText }).partial(),
    description: z.strictObject({ en: descriptionText, ar: descriptionText }).partial(),
    homeUrl: httpUrl({ fragment: true }),
    redirectUris: redirectUrisSchema,
    clientType: z.enum(['public', 'confidential']),
    currency: currencySchema,
    monthlyPricePerLocation: z.int('must be a whole number of minor units').min(0, 'may not be negative'),
    discounts: planDiscountsSchema.partial(),
    trialDays: z.int('must be a whole number of days').min(0).max(365),
    logo: z.string().min(1).nullable(),
  })
  .partial();

type ApplicationErrorReason =
  | 'invalidInput'
  | 'notFound'
  | 'duplicateClientId'
  | 'publicClient'
  | 'logoNotUsable';

/** A refusal the command line reports on one line (and exits 2 with): nothing was changed. */
export class ApplicationError extends Error {
  override name = 'ApplicationError';
  constructor(
    readonly reason: ApplicationErrorReason,
    message: string,
    /** For `invalidInput`: each bad field (dotted path) and what is wrong with it. */
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}

/** Parses the operator's input, or throws `invalidInput` naming every bad field. */
export function parseApplicationInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(input)',
    message: issue.message,
  }));
  throw new ApplicationError(
    'invalidInput',
    `Invalid application: ${issues.map((issue) => `${issue.path} ${issue.message}`).join('; ')}`,
    issues,
  );
}
