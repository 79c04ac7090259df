/**
 * Effects on the command line (docs/SPEC.md §3.1, §5.6): `--effect owner:resource:action[:json-args]`
 * (repeatable) and `--effects FILE` (a JSON array of effects). The owner is everything before the
 * first colon; JSON arguments start at the first `:{`; the action is after the last colon before
 * them, so a resource may hold colons (`jenny:github:jenny/app:merge`). A malformed flag is a usage
 * error; an effect the protocol refuses (bad alphabet, too large) is E_SCHEMA, checked before
 * anything is signed.
 */
import { EffectsSchema, parseOrThrow, type Effect } from "../protocol/index.js";
import { UsageError } from "./exit.js";
import { readJsonFile } from "./json-file.js";

/** One `--effect` value as an effect (unchecked: EffectsSchema judges the list). */
export function parseEffectFlag(text: string): Record<string, unknown> {
  const first = text.indexOf(":");
  if (first <= 0) throw new UsageError(`--effect "${text}" must look like owner:resource:action[:{json args}]`);
  const owner = text.slice(0, first);
  const rest = text.slice(first + 1);
  const argsAt = rest.indexOf(":{");
  const head = argsAt < 0 ? rest : rest.slice(0, argsAt);
  const last = head.lastIndexOf(":");
  if (last <= 0 || last === head.length - 1)
    throw new UsageError(`--effect "${text}" must look like owner:resource:action[:{json args}]`);
  return {
    owner,
    resource: head.slice(0, last),
    action: head.slice(last + 1),
    args: argsAt < 0 ? {} : jsonArgs(rest.slice(argsAt + 1), text),
  };
}

/** The effects of `--effects FILE` then each `--effect`, validated; undefined when neither was given. */
export function effectsFromFlags(values: Record<string, unknown>): Effect[] | undefined {
  const listed: unknown[] = [];
  if (typeof values.effects === "string") listed.push(...fileEffects(values.effects));
  if (Array.isArray(values.effect)) for (const flag of values.effect) listed.push(parseEffectFlag(String(flag)));
  return listed.length === 0 ? undefined : parseOrThrow(EffectsSchema, listed, "effects");
}

function jsonArgs(json: string, flag: string): unknown {
  let args: unknown;
  try {
    args = JSON.parse(json);
  } catch {
    throw new UsageError(`--effect "${flag}": the arguments after the action are not JSON`);
  }
  if (typeof args !== "object" || args === null || Array.isArray(args))
    throw new UsageError(`--effect "${flag}": the arguments must be a JSON object`);
  return args;
}

function fileEffects(path: string): unknown[] {
  const json = readJsonFile(path, "the effects file");
  if (!Array.isArray(json)) throw new UsageError(`${path} must hold a JSON array of effects`);
  return json;
}
