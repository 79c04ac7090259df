/**
 * The --currency flag wherever the CLI takes one (`mandate set`, the room verbs' terms, `room auction`): exactly an
 * ISO 4217 code the protocol accepts, never normalized, so "usd" is a usage error that names the
 * code it probably meant instead of a refusal from the relay.
 */
import { CurrencySchema, type CurrencyCode } from "../protocol/index.js";
import { optional, type Parsed } from "./args.js";
import { UsageError } from "./exit.js";

/** The --currency code as given, or undefined when absent; a usage error naming the accepted form for anything else. */
export function currencyFlag(parsed: Parsed): CurrencyCode | undefined {
  const given = optional(parsed, "currency");
  if (given === undefined) return undefined;
  const currency = CurrencySchema.safeParse(given);
  if (currency.success) return currency.data;
  const near = CurrencySchema.safeParse(given.trim().toUpperCase());
  throw new UsageError(
    `--currency "${given}" is not an ISO 4217 code${near.success ? `; did you mean ${near.data}?` : " (such as TWD, USD, JPY)"}`,
  );
}
