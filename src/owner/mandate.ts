/**
 * Mandates (docs/ROOMS.md): one owner-signed file per seat at a table, enforced on the owner's
 * machine before anything is signed. Reading one fails closed: a missing file means no mandate
 * (cap 0: nothing is committed), and a file that cannot be read, does not parse (a value of the
 * wrong type, an unknown key), is for another table or seat, or is not signed by the seat's owner
 * is a broken mandate, with a message saying which. A mandate signed looser than the one it
 * replaces is marked `loosened` in what the owner signs, and stays so until the owner signs one
 * clearing it, so the gate (gate.ts) asks for the owner's approval of each commitment meanwhile.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseOrThrow, schemaError, signStatement, verifyStatement, type Signer } from "../protocol/index.js";
import { MandateFileSchema, MandateSchema, type Mandate, type MandateAllowance, type MandateFile } from "./records.js";

/** Why there is no mandate to trust. */
export type MandateProblem = "no_mandate" | "unreadable" | "malformed" | "not_signed";

/** A mandate read for a seat: trusted, or the problem and what it means. */
export type MandateRead =
  { ok: true; mandate: Mandate; file: MandateFile } | { ok: false; reason: MandateProblem; message: string };

/** Who the mandate must be for, and whose key must have signed it. */
export interface MandateFor {
  table: string;
  seat: string;
  /** The seat's owner's public key, from the verified ledger. */
  ownerKey: string;
}

/** Reads and checks the mandate file at `path` for `expected`; never throws for a bad file, reports it. */
export async function readMandate(path: string, expected: MandateFor): Promise<MandateRead> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    if (missing)
      return {
        ok: false,
        reason: "no_mandate",
        message: `no mandate at ${path}: cap 0, nothing is committed until the owner writes one (trestle mandate set)`,
      };
    return {
      ok: false,
      reason: "unreadable",
      message: `the mandate ${path} cannot be read (${(error as Error).message}): cap 0, nothing is committed`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: "malformed", message: `the mandate ${path} is not JSON: cap 0, nothing is committed` };
  }
  const parsed = MandateFileSchema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      reason: "malformed",
      message: `the mandate ${path} is malformed (${schemaError(parsed.error.issues, "mandate").message}): cap 0, nothing is committed`,
    };
  }
  const file = parsed.data;
  const { mandate } = file;
  if (mandate.table !== expected.table || mandate.seat !== expected.seat) {
    return {
      ok: false,
      reason: "malformed",
      message: `the mandate ${path} is for seat ${mandate.seat} at ${mandate.table}, not ${expected.seat} at ${expected.table}: cap 0, nothing is committed`,
    };
  }
  if (file.owner_key !== expected.ownerKey || !(await verifyStatement(file.owner_key, "mandate", mandate, file.sig))) {
    return {
      ok: false,
      reason: "not_signed",
      message: `the mandate ${path} is not signed by the seat's owner key: cap 0, nothing is committed`,
    };
  }
  return { ok: true, mandate, file };
}

/** Whether `next` gives the seat more room than `prev` in any way (a higher cap, a lower floor, another currency, a string or kind dropped, a secret amount allowed, unpaused, deals signed by the standing rule, the figures shown to an agent told only the rules, a wider or dropped allowance, a market or category added or the restriction dropped). */
export function loosens(prev: Mandate, next: Mandate): boolean {
  const money = (): boolean => {
    if (!next.money) return false;
    if (!prev.money) return true;
    if (next.money.currency !== prev.money.currency || next.money.cap > prev.money.cap) return true;
    return prev.money.floor !== undefined && (next.money.floor === undefined || next.money.floor < prev.money.floor);
  };
  return (
    money() ||
    widensAllowance(prev.allowance, next.allowance) ||
    widensList(prev.markets, next.markets) ||
    widensList(prev.categories, next.categories) ||
    (prev.paused && !next.paused) ||
    (prev.sign_deals === undefined && next.sign_deals !== undefined) ||
    prev.never_disclose.some((s) => !next.never_disclose.includes(s)) ||
    (prev.secret_amount !== "allow" && next.secret_amount === "allow") ||
    (prev.agent_view === "rules" && next.agent_view !== "rules") ||
    prev.require_confirm.some((k) => !next.require_confirm.includes(k))
  );
}

/** Whether allowance `next` lets the owner spend or hold open more than `prev`: dropped, another currency, a higher total, or a higher or dropped `open`. */
function widensAllowance(prev: MandateAllowance | undefined, next: MandateAllowance | undefined): boolean {
  if (!prev) return false;
  if (!next || next.currency !== prev.currency || next.total > prev.total) return true;
  return prev.open !== undefined && (next.open === undefined || next.open > prev.open);
}

/** Whether restriction `next` (absent: anything) allows a name `prev` did not. */
function widensList(prev: readonly string[] | undefined, next: readonly string[] | undefined): boolean {
  if (!prev) return false;
  return !next || next.some((name) => !prev.includes(name));
}

/** The mandate the owner signs next: `fields`, marked loosened if looser than `current` (or `current` was and the owner does not clear it); E_SCHEMA (E_TOO_LARGE) naming the field a mandate cannot hold. */
export function nextMandate(
  current: Mandate | null,
  fields: Omit<Mandate, "loosened" | "version">,
  clearLoosened: boolean,
): Mandate {
  const draft: Mandate = parseOrThrow(MandateSchema, { version: 1, ...fields, loosened: false }, "mandate");
  if (!current || clearLoosened) return draft;
  return { ...draft, loosened: loosens(current, draft) || current.loosened };
}

/** Signs `mandate` with the owner key (purpose `mandate`); E_SCHEMA for a value a mandate cannot hold. */
export async function signMandate(ownerSigner: Signer, mandate: Mandate): Promise<MandateFile> {
  const checked = parseOrThrow(MandateSchema, mandate, "mandate");
  return {
    mandate: checked,
    owner_key: ownerSigner.publicKeyText,
    sig: await signStatement(ownerSigner, "mandate", checked),
  };
}

/** Writes a mandate file (mode 0600) through a temporary file and a rename, so a reader never sees half of it. */
export function writeMandateFile(path: string, file: MandateFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(parseOrThrow(MandateFileSchema, file, "mandate file"), null, 2) + "\n", {
    mode: 0o600,
  });
  renameSync(temp, path);
}

/** What the owner sets; the rest (version, loosened, signed_at) is filled in. */
export type MandateFields = Omit<Mandate, "version" | "loosened" | "signed_at">;

/**
 * Signs and writes the mandate for `fields` at `path` with the owner key, marked loosened when
 * looser than the mandate in force (one this owner key signed for the same seat), unless
 * `clearLoosened`. Returns the file written.
 */
export async function setMandate(
  path: string,
  ownerSigner: Signer,
  fields: MandateFields,
  options: { now: number; clearLoosened?: boolean },
): Promise<MandateFile> {
  const current = await readMandate(path, {
    table: fields.table,
    seat: fields.seat,
    ownerKey: ownerSigner.publicKeyText,
  });
  const next = nextMandate(
    current.ok ? current.mandate : null,
    { ...fields, signed_at: options.now },
    options.clearLoosened ?? false,
  );
  const file = await signMandate(ownerSigner, next);
  writeMandateFile(path, file);
  return file;
}
