import { formattingLocale } from './format.ts';

/**
 * The officially assigned ISO 3166-1 alpha-2 codes (249). A fixed list, not every code
 * `Intl.DisplayNames` can name: that also names withdrawn codes under their successor's name
 * (UK and GB both "United Kingdom", SU "Russia", YU and CS "Serbia", ZR "Congo - Kinshasa"), which
 * put 15 countries twice in the choice list.
 */
export const countryCodes: readonly string[] = `
  AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS
  BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE
  EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM
  HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC
  LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
  NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW
  SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO
  TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW`
  .trim()
  .split(/\s+/);

/**
 * The currencies of ISO 4217 list one in use today: no fund codes (BOV, CLF, USN…), precious
 * metals, bond units, SDR or test codes, and none withdrawn. Since the list of 2024-06-25: XCG
 * replaced ANG (2025) and Bulgaria adopted the euro (BGN, 2026). `Intl.supportedValuesOf` is no
 * guide: Node's and Chromium's still offer HRK, SLL, ZWL and ANG, and lack SLE, VED, ZWG and XCG.
 */
export const currencyCodes: readonly string[] = `
  AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD
  CDF CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP
  GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD
  KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN
  NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP
  SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VED VES
  VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG`
  .trim()
  .split(/\s+/);

/** A code already stored (a withdrawn one, e.g. HRK) stays offered so a form does not lose it. */
const withStored = (codes: readonly string[], stored: readonly string[]) => [
  ...codes,
  ...new Set(stored.filter((code) => code && !codes.includes(code))),
];

/** Names a code in the language, or gives the code back when the runtime cannot name it. */
function displayName(names: Intl.DisplayNames, code: string): string {
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/** A choice of a select: a form field's option (`FormFieldOption`) as the resource kit reads it. */
export interface CodeOption {
  value: string;
  label: string;
}

/** Every country (and any `stored` code) named in the language, sorted by that name. */
export function countryOptions(language: string, stored: readonly string[] = []): CodeOption[] {
  const locale = formattingLocale(language);
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  return withStored(countryCodes, stored)
    .map((code) => ({ value: code, label: displayName(names, code) }))
    .sort((a, b) => a.label.localeCompare(b.label, locale));
}

/** Every current currency (and any `stored` code) as 'SAR · Saudi Riyal' in the language, by code. */
export function currencyOptions(language: string, stored: readonly string[] = []): CodeOption[] {
  const names = new Intl.DisplayNames([formattingLocale(language)], { type: 'currency' });
  return withStored(currencyCodes, stored)
    .sort()
    .map((code) => {
      const name = displayName(names, code);
      return { value: code, label: name === code ? code : `${code} · ${name}` };
    });
}
