/**
 * An owner's allowance store for one market (docs/MARKETS.md "An owner's allowance", decision 0465):
 * the commitments the owner's guards reserved or spent across every room of the market, in the
 * trestle home at `allowances/<owner>/<market>.json` (mode 0600). It is the one reservation point
 * that every process of the owner passes, and every machine that shares the home: each change reads,
 * judges and writes the store while holding its exclusive lock (file-lock.ts, `<market>.json.lock`),
 * so two processes judging at once are judged one after the other, the second seeing the first's
 * reservation. A store that does not parse, or is another owner key's or market's, fails closed
 * (E_MANDATE, `allowance_store`), as does a lock that cannot be taken.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { writeAtomically } from "../client/files.js";
import {
  AmountSchema,
  canonicalize,
  CurrencySchema,
  MillisSchema,
  NonceSchema,
  OwnerNameSchema,
  parseOrThrow,
  PublicKeySchema,
  schemaError,
  SeatNameSchema,
  SeqSchema,
  Sha256Schema,
  TableIdSchema,
  TrestleError,
} from "../protocol/index.js";
import { withLock } from "./file-lock.js";
import { ReserverSchema } from "./process-identity.js";

/** The side of its match the owner is on in a room: the buyer (`wanted_by`), who spends, or the seller (`offered_by`). */
export const AllowanceSideSchema = z.enum(["buyer", "seller"]);
export type AllowanceSide = z.infer<typeof AllowanceSideSchema>;

/**
 * One commitment the store counts: the write that reserved it (room, seat, kind, nonce, hash), the
 * side, the amount it counts against the total (0 for the seller's), `open` until its deal is done
 * (then `spent`, at the deal's amount); `seq` once its entry is known, `deal` the leaf of the offer
 * or auction a deal on it is keyed by (an offer's or counter's own, once its entry is known). A
 * sealed bid on a market's listing (decision 0499) names the `listing`, and once it won, the `sale`:
 * the room of the sale's match, whose deal it counts from then on, at the settled price.
 */
export const AllowanceCommitmentSchema = z.strictObject({
  room: TableIdSchema,
  seat: SeatNameSchema,
  kind: z.string().regex(/^[a-z][a-z_]{0,31}$/),
  nonce: NonceSchema,
  message_sha256: Sha256Schema,
  side: AllowanceSideSchema,
  amount: AmountSchema,
  currency: CurrencySchema.optional(),
  state: z.enum(["open", "spent"]),
  seq: SeqSchema.optional(),
  deal: Sha256Schema.optional(),
  listing: Sha256Schema.optional(),
  sale: TableIdSchema.optional(),
  process: ReserverSchema,
  at: MillisSchema,
});
export type AllowanceCommitment = z.infer<typeof AllowanceCommitmentSchema>;

/** The table whose verified ledger says what became of `c`: the room of the sale a sealed bid won, else the table it was written at. */
export function judgedIn(c: AllowanceCommitment): string {
  return c.sale ?? c.room;
}

/** The most commitments one store holds; a reservation past it is refused (fail closed). */
export const ALLOWANCE_COMMITMENTS = 10_000;

/** One version of the store: its number, whose allowance it is (the owner's name and key in the market), and the commitments. */
export const AllowanceFileSchema = z.strictObject({
  v: z.literal(1),
  version: z.int().min(1),
  owner: OwnerNameSchema,
  owner_key: PublicKeySchema,
  market: TableIdSchema,
  commitments: z.array(AllowanceCommitmentSchema).max(ALLOWANCE_COMMITMENTS),
});
export type AllowanceFile = z.infer<typeof AllowanceFileSchema>;

/** What a store counts: the buyer's amounts spent (deals done) and reserved (still open), and the commitments open on either side. */
export interface AllowanceTotals {
  spent: number;
  reserved: number;
  open: number;
}

/** The totals of `commitments`. */
export function allowanceTotals(commitments: readonly AllowanceCommitment[]): AllowanceTotals {
  const totals: AllowanceTotals = { spent: 0, reserved: 0, open: 0 };
  for (const c of commitments) {
    if (c.state === "open") totals.open += 1;
    if (c.side === "buyer") totals[c.state === "open" ? "reserved" : "spent"] += c.amount;
  }
  return totals;
}

/** Whose allowance in which market: the owner's name and key as the market's matches name them. */
export interface AllowanceOwner {
  owner: string;
  ownerKey: string;
  market: string;
}

/** The allowance store of `who` under trestle home `home`; names the protocol refuses are E_SCHEMA, so each is one path segment. */
export class AllowanceStore {
  readonly path: string;

  constructor(
    home: string,
    readonly who: AllowanceOwner,
  ) {
    const owner = parseOrThrow(OwnerNameSchema, who.owner, "owner");
    const market = parseOrThrow(TableIdSchema, who.market, "market");
    this.path = join(home, "allowances", owner, `${market}.json`);
  }

  /** The store as it is (version 0, with no commitments, before its first change); E_MANDATE (`allowance_store`) when it does not parse or is another's. */
  read(): AllowanceFile {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT")
        return {
          v: 1,
          version: 0,
          owner: this.who.owner,
          owner_key: this.who.ownerKey,
          market: this.who.market,
          commitments: [],
        };
      throw this.broken(`it cannot be read (${(error as Error).message})`);
    }
    return this.parse(text);
  }

  /**
   * Holding the store's lock, applies `change` to its commitments and writes those it returns as the
   * next version. Whatever `change` throws is thrown and nothing is written; commitments equal to its
   * input write nothing. Returns `change`'s `result`.
   */
  async update<T>(
    change: (commitments: AllowanceCommitment[]) => { commitments: AllowanceCommitment[]; result: T },
  ): Promise<T> {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    try {
      return await withLock(`${this.path}.lock`, () => {
        const current = this.read();
        const { commitments, result } = change(structuredClone(current.commitments));
        if (canonicalize(commitments) === canonicalize(current.commitments)) return result;
        const next = parseOrThrow(
          AllowanceFileSchema,
          { ...current, version: current.version + 1, commitments },
          "allowance store",
        );
        writeAtomically(this.path, JSON.stringify(next) + "\n");
        return result;
      });
    } catch (error) {
      if (error instanceof TrestleError && error.details?.reason === "locked") throw this.broken(error.message);
      throw error;
    }
  }

  private parse(text: string): AllowanceFile {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw this.broken("it is not JSON");
    }
    const parsed = AllowanceFileSchema.safeParse(json);
    if (!parsed.success)
      throw this.broken(`it is malformed (${schemaError(parsed.error.issues, "allowance store").message})`);
    const file = parsed.data;
    if (file.owner !== this.who.owner || file.owner_key !== this.who.ownerKey || file.market !== this.who.market) {
      throw this.broken(`it is the allowance of ${file.owner} (key ${file.owner_key.slice(0, 12)}…) in ${file.market}`);
    }
    return file;
  }

  private broken(why: string): TrestleError {
    return new TrestleError(
      "E_MANDATE",
      `the allowance store ${this.path} of ${this.who.owner} in market ${this.who.market} cannot be trusted: ${why}; nothing that spends is committed until the owner repairs it (docs/MARKETS.md "An owner's allowance")`,
      { reason: "allowance_store", store: this.path },
    );
  }
}
