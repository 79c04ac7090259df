/**
 * One way for a test to say "refused", however the refusal arrives: a TrestleError a call throws
 * (the protocol, the client, the owner's side), an HTTP reply carrying the error envelope (the
 * relay, the window's server), or a `--json` CLI run printing it. `refused` checks the code and
 * what else the test names (the HTTP status, a 4xx when it names none; the exit code; details) and
 * that what a refusal must not change did not change (`unmoved`: a ledger, a head, a journal).
 * Runs in Node and in workerd.
 */
import { expect } from "vitest";
import { httpStatusOf, TrestleError, type ErrorCode } from "../../src/protocol/index.js";

/** A table whose ledger and folded state a refusal must leave as they were (TestTable, RoomLedger, MarketLedger). */
export interface LedgerHolder {
  l: { entries: readonly unknown[] };
  state: unknown;
}

/** What a refusal must be besides its code. */
export interface Expected {
  /** The HTTP status of a reply (without it, any 4xx), or of a thrown error's code. */
  status?: number;
  /** The exit code of a CLI run (without it, any but 0). */
  exit?: number;
  /** Fields the error's details hold (as toMatchObject). */
  details?: Record<string, unknown>;
  /** Read before and after the attempt, equal both times: a table's ledger and state, or any snapshot (a head, a journal). */
  unmoved?: LedgerHolder | (() => unknown);
}

/** An HTTP reply: its status and its body, parsed or as JSON text. */
type HttpReply = { status: number; body: unknown };
/** A CLI run: its exit code and output, and with --json stdout parsed as `body`. */
type CliRun = { code: number | null; stdout: string; stderr: string; body?: unknown };

/** What a call came to: the TrestleError it threw, or the value it returned. */
type Outcome = { refusal: TrestleError } | { value: unknown };

/** `error` as the refusal it is; anything but a TrestleError is rethrown, a failure the test did not expect. */
function asRefusal(error: unknown): Outcome {
  if (error instanceof TrestleError) return { refusal: error };
  throw error;
}

/** What `run` came to: at once when it returns no promise, else a promise of it. */
function outcomeOf(run: () => unknown): Outcome | Promise<Outcome> {
  let value: unknown;
  try {
    value = run();
  } catch (error) {
    return asRefusal(error);
  }
  return value instanceof Promise ? value.then((resolved: unknown) => ({ value: resolved }), asRefusal) : { value };
}

/** The refusal in `outcome`; fails the test when the call was accepted. */
function refusalIn(outcome: Outcome): TrestleError {
  if ("value" in outcome) throw new Error("expected a TrestleError, but the call was accepted");
  return outcome.refusal;
}

/** The TrestleError `run` throws; a promise of it when `run` returns a promise. Fails the test when the call is accepted. */
export function refusal(run: () => Promise<unknown>): Promise<TrestleError>;
export function refusal(run: () => unknown): TrestleError;
export function refusal(run: () => unknown): TrestleError | Promise<TrestleError> {
  const outcome = outcomeOf(run);
  return outcome instanceof Promise ? outcome.then(refusalIn) : refusalIn(outcome);
}

/** The code `run` is refused with, or "accepted"; a promise of it when `run` returns a promise. */
export function refusalCode(run: () => Promise<unknown>): Promise<string>;
export function refusalCode(run: () => unknown): string;
export function refusalCode(run: () => unknown): string | Promise<string> {
  const code = (outcome: Outcome) => ("value" in outcome ? "accepted" : outcome.refusal.code);
  const outcome = outcomeOf(run);
  return outcome instanceof Promise ? outcome.then(code) : code(outcome);
}

/** The ledger's length and folded state of `table`, to compare before and after a refusal. */
function ledgerOf(table: LedgerHolder): unknown {
  return { entries: table.l.entries.length, state: JSON.stringify(table.state) };
}

/** The snapshot `unmoved` names. */
async function snapshot(unmoved: NonNullable<Expected["unmoved"]>): Promise<unknown> {
  return typeof unmoved === "function" ? await unmoved() : ledgerOf(unmoved);
}

/** Whether `value` is a reply or a CLI run, which carries a refusal as its error envelope. */
function isAnswer(value: unknown): value is HttpReply | CliRun {
  return (
    typeof value === "object" &&
    value !== null &&
    (typeof (value as HttpReply).status === "number" || typeof (value as CliRun).stdout === "string")
  );
}

/** The error in the envelope `answer` carries, once its status or exit is what `expected` says. */
function envelopeOf(answer: HttpReply | CliRun, expected: Expected): Record<string, unknown> {
  if ("status" in answer) {
    const body = (typeof answer.body === "string" ? JSON.parse(answer.body) : answer.body) as {
      error?: Record<string, unknown>;
    } | null;
    if (expected.status !== undefined) expect(answer.status, JSON.stringify(body)).toBe(expected.status);
    else expect(Math.floor(answer.status / 100), JSON.stringify(body)).toBe(4);
    return body?.error ?? {};
  }
  if (expected.exit !== undefined) expect(answer.code, answer.stderr).toBe(expected.exit);
  else expect(answer.code, answer.stderr).not.toBe(0);
  expect(answer.stdout + answer.stderr, "a stack trace").not.toMatch(/^\s+at .+:\d+/m);
  const error =
    "body" in answer
      ? ((answer.body as { error?: Record<string, unknown> } | null)?.error ?? {})
      : printedError(answer.stderr);
  expect(typeof error.hint, "a CLI refusal's hint").toBe("string");
  return error;
}

/** The error a CLI run printed for people: `error <code>: <message>` and `hint: <hint>` on stderr. */
function printedError(stderr: string): Record<string, unknown> {
  const [, code, message] = /^error (\S+): (.*)$/m.exec(stderr) ?? [];
  return { code, message, hint: /^hint: (.*)$/m.exec(stderr)?.[1] };
}

/**
 * Expects `attempt` to be refused with `code` and what `expected` names, and `expected.unmoved`
 * unchanged by it. Returns the reply when the attempt resolves to one (an HTTP reply or a CLI
 * run), otherwise the TrestleError it threw.
 */
export async function refused<R extends HttpReply | CliRun>(
  code: ErrorCode,
  attempt: () => Promise<R>,
  expected?: Expected,
): Promise<R>;
export async function refused(code: ErrorCode, attempt: () => unknown, expected?: Expected): Promise<TrestleError>;
export async function refused(code: ErrorCode, attempt: () => unknown, expected: Expected = {}): Promise<unknown> {
  const { unmoved } = expected;
  const before = unmoved === undefined ? null : { taken: await snapshot(unmoved) };
  const outcome = await outcomeOf(attempt);
  let error: { code?: unknown; message?: unknown; details?: unknown };
  if ("refusal" in outcome) {
    error = outcome.refusal;
    if (expected.status !== undefined) expect(httpStatusOf(outcome.refusal.code)).toBe(expected.status);
  } else if (isAnswer(outcome.value)) error = envelopeOf(outcome.value, expected);
  else throw new Error(`expected a refusal with ${code}, but the call was accepted`);
  expect(error.code, String(error.message)).toBe(code);
  expect(typeof error.message).toBe("string");
  if (expected.details !== undefined) expect(error.details).toMatchObject(expected.details);
  if (unmoved !== undefined) expect(await snapshot(unmoved), "what the refusal must not move").toEqual(before!.taken);
  return "refusal" in outcome ? outcome.refusal : outcome.value;
}
