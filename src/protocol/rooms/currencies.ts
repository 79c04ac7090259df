/**
 * ISO 4217 currency codes a room's terms may name: the alphabetic codes of ISO 4217 List One in
 * force in 2026 (national currencies, XAF, XCD, XCG, XOF, XPF, XDR, XSU), without funds, precious
 * metals, testing codes and withdrawn currencies (ANG, CUC, HRK, SLL, ZWL), and each one's minor
 * unit as List One gives it (docs/SPEC.md §5.10 lists both, checked by test/unit/docs). An amount
 * is an integer in the currency's minor unit; the relay never needs the exponent, but every
 * client that shows an amount in major units must use these digits and no other table.
 */

/** Every accepted code, sorted. */
export const ISO_4217 = [
  "AED", "AFN", "ALL", "AMD", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT", "BGN", "BHD", "BIF", "BMD",
  "BND", "BOB", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD", "CDF", "CHF", "CLP", "CNY", "COP", "CRC", "CUP",
  "CVE", "CZK", "DJF", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL", "GHS", "GIP",
  "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS", "INR", "IQD", "IRR", "ISK", "JMD", "JOD",
  "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL", "LYD",
  "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN", "MYR", "MZN", "NAD", "NGN",
  "NIO", "NOK", "NPR", "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD", "RUB",
  "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SOS", "SRD", "SSP", "STN", "SVC", "SYP", "SZL",
  "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH", "UGX", "USD", "UYU", "UZS", "VES", "VND",
  "VUV", "WST", "XAF", "XCD", "XCG", "XDR", "XOF", "XPF", "XSU", "YER", "ZAR", "ZMW", "ZWG",
] as const;

/** One accepted currency code. */
export type CurrencyCode = (typeof ISO_4217)[number];

/** Codes whose minor unit is the unit itself (exponent 0); XDR and XSU, which List One gives none, count whole units too. */
const EXPONENT_0: ReadonlySet<CurrencyCode> = new Set<CurrencyCode>([
  "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "VND", "VUV", "XAF", "XDR", "XOF", "XPF", "XSU",
]);
/** Codes whose minor unit is a thousandth (exponent 3). */
const EXPONENT_3: ReadonlySet<CurrencyCode> = new Set<CurrencyCode>(["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]);

/** How many decimal digits `code`'s minor unit has: 0, 2 (every code not listed above) or 3. */
export function minorDigits(code: CurrencyCode): 0 | 2 | 3 {
  return EXPONENT_0.has(code) ? 0 : EXPONENT_3.has(code) ? 3 : 2;
}
