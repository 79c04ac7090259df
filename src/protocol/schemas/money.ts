/**
 * Money on the wire (docs/SPEC.md §5.10): a currency's ISO 4217 code and an amount in its minor
 * unit. Apart from room.ts so that a market's match (match.ts), which room.ts imports, can carry a
 * price without an import cycle.
 */
import * as z from "zod";
import { ISO_4217 } from "../rooms/currencies.js";

/** An ISO 4217 alphabetic code (src/protocol/rooms/currencies.ts). */
export const CurrencySchema = z.enum(ISO_4217);
export type Currency = z.infer<typeof CurrencySchema>;

/** An amount in the currency's minor unit: a non-negative safe integer (a string "1000" is refused). */
export const AmountSchema = z.int().min(0).max(Number.MAX_SAFE_INTEGER);
