/**
 * The limits flags of `trestle mandate set` (docs/CLI.md), checked before anything is signed: a
 * value the mandate cannot hold is a usage error naming what is allowed, never an unexpected
 * failure. Nothing is normalized: the owner signs exactly what they typed, so a near miss ("ACCEPT",
 * " accept ", "twd") is refused with the value it probably meant, and a never_disclose string is
 * named by its position, never echoed. Repeats are dropped (they mean nothing twice).
 */
import {
  AgentViewSchema,
  foldText,
  MandateAllowanceSchema,
  MandateSchema,
  SecretAmountSchema,
  WritableKindSchema,
  type AgentView,
  type MandateAllowance,
  type MandateMoney,
  type SecretAmount,
} from "../owner/index.js";
import { CategorySchema, TableIdSchema } from "../protocol/index.js";
import type { z } from "zod";
import { integer, optional, type Parsed } from "./args.js";
import { currencyFlag } from "./currency-flag.js";
import { UsageError } from "./exit.js";

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
const unique = (values: readonly string[]): string[] => [...new Set(values)];

/** The --require-confirm kinds, each exactly a writable kind, once each; a usage error otherwise. */
export function confirmKinds(parsed: Parsed): string[] {
  const kinds: readonly string[] = WritableKindSchema.options;
  for (const given of strings(parsed.values["require-confirm"])) {
    if (kinds.includes(given)) continue;
    const near = kinds.find((kind) => kind === given.trim().toLowerCase());
    throw new UsageError(
      `--require-confirm "${given}" is not a kind${near === undefined ? "" : `; did you mean ${near}?`} (kinds: ${kinds.join(", ")})`,
    );
  }
  return unique(strings(parsed.values["require-confirm"]));
}

/**
 * The --never-disclose strings, once each; a usage error for one that the check would ignore (empty,
 * or only invisible characters), one with spaces around it (the check would look for the spaces too,
 * so "2400," would pass), or one or a list over the mandate's limits.
 */
export function neverDisclose(parsed: Parsed): string[] {
  const given = strings(parsed.values["never-disclose"]);
  given.forEach((text, i) => {
    if (foldText(text).trim() === "")
      throw new UsageError(
        `--never-disclose #${i + 1} is empty (or only spaces and invisible characters): it would match nothing`,
      );
    if (text.trim() !== text)
      throw new UsageError(
        `--never-disclose #${i + 1} has spaces around it, and the check would look for them too (so the text followed by a comma would pass); give it without them`,
      );
  });
  const list = unique(given);
  const checked = MandateSchema.shape.never_disclose.safeParse(list);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const at = typeof issue.path[0] === "number" ? ` #${given.indexOf(list[issue.path[0]]!) + 1}` : "";
    throw new UsageError(`--never-disclose${at}: ${issue.message}`);
  }
  return list;
}

/** The money limits of --currency, --cap and --floor, or undefined without --cap (cap 0); a usage error for an unknown currency or a floor above the cap. */
export function mandateMoney(parsed: Parsed): MandateMoney | undefined {
  const cap = integer(parsed, "cap");
  const floor = integer(parsed, "floor");
  const given = optional(parsed, "currency");
  if ((cap === undefined) !== (given === undefined)) throw new UsageError("--cap and --currency go together");
  if (floor !== undefined && cap === undefined) throw new UsageError("--floor needs --cap and --currency");
  const currency = currencyFlag(parsed);
  if (cap === undefined || currency === undefined) return undefined;
  if (floor !== undefined && floor > cap)
    throw new UsageError(`--floor ${floor} is above --cap ${cap}: no amount could be committed`);
  return { currency, cap, ...(floor === undefined ? {} : { floor }) };
}

/** The allowance of --allowance (minor units of the money's currency) and --allowance-open, or undefined without --allowance; a usage error without --cap and --currency, or for --allowance-open alone. */
export function mandateAllowance(parsed: Parsed, money: MandateMoney | undefined): MandateAllowance | undefined {
  const total = integer(parsed, "allowance");
  const open = integer(parsed, "allowance-open");
  if (total === undefined) {
    if (open !== undefined) throw new UsageError("--allowance-open needs --allowance");
    return undefined;
  }
  if (!money) throw new UsageError("--allowance needs --cap and --currency: it is counted in the money's currency");
  const checked = MandateAllowanceSchema.safeParse({
    currency: money.currency,
    total,
    ...(open === undefined ? {} : { open }),
  });
  if (!checked.success) throw new UsageError(`--allowance-open: ${checked.error.issues[0]!.message}`);
  return checked.data;
}

/** The --market table ids, once each, or undefined when none is given (any market); a usage error for one that is not a table id. */
export function mandateMarkets(parsed: Parsed): string[] | undefined {
  return namesFlag(parsed, "market", TableIdSchema);
}

/** The --category names, once each, or undefined when none is given (any category); a usage error for one that is not a category name. */
export function mandateCategories(parsed: Parsed): string[] | undefined {
  return namesFlag(parsed, "category", CategorySchema);
}

/** Repeatable flag `name`'s values, each one `schema` takes, once each; undefined when not given. */
function namesFlag(parsed: Parsed, name: string, schema: z.ZodType<string>): string[] | undefined {
  const given = strings(parsed.values[name]);
  if (given.length === 0) return undefined;
  for (const value of given) {
    const checked = schema.safeParse(value);
    if (!checked.success) throw new UsageError(`--${name} "${value}": ${checked.error.issues[0]!.message}`);
  }
  return unique(given);
}

/** The --secret-amount choice (refuse or allow an amount equal to a numeric secret), undefined when not given; a usage error otherwise. */
export function secretAmount(parsed: Parsed): SecretAmount | undefined {
  return choiceFlag(parsed, "secret-amount", SecretAmountSchema.options);
}

/** The --agent-view choice (the agent told the cap and floor as figures, or only as rules), undefined when not given; a usage error otherwise. */
export function agentView(parsed: Parsed): AgentView | undefined {
  return choiceFlag(parsed, "agent-view", AgentViewSchema.options);
}

/** Flag `name`'s value, exactly one of `options`; undefined when not given, a usage error naming them otherwise. */
function choiceFlag<T extends string>(parsed: Parsed, name: string, options: readonly T[]): T | undefined {
  const given = optional(parsed, name);
  if (given === undefined) return undefined;
  const choice = options.find((option) => option === given);
  if (choice === undefined) throw new UsageError(`--${name} is ${options.join(" or ")}, not "${given}"`);
  return choice;
}
