/**
 * The head store (Node only), under the trestle home: for each table, the held head (the newest
 * one whose chain this home verified) and the evidence kept against its relay, so a relay that
 * later serves a shorter or different ledger is caught even by a new process, and stays caught.
 * Layout under <home>/heads/<relay key>/: `<table>.json` (the held head), `evidence/<table>.json`
 * (every finding, oldest first), `cleared/<table>.<ms>.json` (what `clear` set aside: nothing
 * is deleted). A file that does not parse is treated as absent for heads and refused for evidence.
 */
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod";
import {
  EvidenceSchema,
  PublicKeySchema,
  SignedHeadSchema,
  TableIdSchema,
  TrestleError,
  type Evidence,
  type SignedHead,
} from "../protocol/index.js";
import { readJsonFile, writeAtomically } from "./files.js";
import { sameEvidence, type HeadStore } from "./heads.js";
import { systemClock, type Clock } from "./random.js";

/** One kept finding and when this home recorded it. */
export const KeptEvidenceSchema = z.strictObject({ recorded_at: z.int().min(0), evidence: EvidenceSchema });
export type KeptEvidence = z.infer<typeof KeptEvidenceSchema>;

/** evidence/<table>.json */
export const EvidenceFileSchema = z.strictObject({ version: z.literal(1), items: z.array(KeptEvidenceSchema) });
export type EvidenceFile = z.infer<typeof EvidenceFileSchema>;

/** cleared/<table>.<ms>.json: the held head and the evidence an owner set aside on purpose. */
export const ClearedFileSchema = z.strictObject({
  version: z.literal(1),
  cleared_at: z.int().min(0),
  held: SignedHeadSchema.nullable(),
  items: z.array(KeptEvidenceSchema),
});
export type ClearedFile = z.infer<typeof ClearedFileSchema>;

/** Evidence kept for one table at one relay. */
export interface TableEvidence {
  relay: string;
  table: string;
  items: KeptEvidence[];
}

/** Held heads and evidence in <home>/heads. */
export class FileHeadStore implements HeadStore {
  constructor(
    private readonly home: string,
    private readonly clock: Clock = systemClock,
  ) {}

  load(relay: string, table: string): SignedHead | null {
    if (!named(relay, table)) return null;
    const parsed = SignedHeadSchema.safeParse(readJsonFile(this.headPath(relay, table)).value);
    return parsed.success ? parsed.data : null;
  }

  save(head: SignedHead): void {
    writeAtomically(this.headPath(head.relay, head.table), JSON.stringify(head) + "\n");
  }

  evidence(relay: string, table: string): Evidence[] {
    return this.kept(relay, table).map((item) => item.evidence);
  }

  keep(evidence: Evidence): void {
    const relay = evidence.heads[0]!.relay;
    const items = this.kept(relay, evidence.table);
    if (items.some((item) => sameEvidence(item.evidence, evidence))) return;
    const file: EvidenceFile = { version: 1, items: [...items, { recorded_at: this.clock(), evidence }] };
    writeAtomically(this.evidencePath(relay, evidence.table), JSON.stringify(file, null, 2) + "\n");
  }

  elsewhere(table: string, except: string): SignedHead[] {
    return this.relays()
      .filter((relay) => relay !== except)
      .flatMap((relay) => this.load(relay, table) ?? []);
  }

  /** Every table with evidence kept in this home, by relay key then table. */
  allEvidence(): TableEvidence[] {
    const found: TableEvidence[] = [];
    for (const relay of this.relays()) {
      for (const table of this.jsonNames(join(this.home, "heads", relay, "evidence"))) {
        const items = this.kept(relay, table);
        if (items.length > 0) found.push({ relay, table, items });
      }
    }
    return found;
  }

  /**
   * Sets the evidence and the held head of `table` aside (into cleared/), so the next contact with
   * the relay starts afresh, as on first use. Returns what was set aside, or null when there was nothing.
   */
  clear(relay: string, table: string): ClearedFile | null {
    if (!named(relay, table)) return null;
    const items = this.kept(relay, table);
    const held = this.load(relay, table);
    if (items.length === 0 && held === null) return null;
    const cleared: ClearedFile = { version: 1, cleared_at: this.clock(), held, items };
    writeAtomically(
      join(this.home, "heads", relay, "cleared", `${table}.${cleared.cleared_at}.json`),
      JSON.stringify(cleared, null, 2) + "\n",
    );
    rmSync(this.evidencePath(relay, table), { force: true });
    rmSync(this.headPath(relay, table), { force: true });
    return cleared;
  }

  /** The tables this home holds a head for at the relay with key `relay`, sorted. */
  tables(relay: string): string[] {
    return PublicKeySchema.safeParse(relay).success ? this.jsonNames(join(this.home, "heads", relay)) : [];
  }

  /** The relay keys this home keeps heads or evidence under. */
  private relays(): string[] {
    return this.names(join(this.home, "heads")).filter((name) => PublicKeySchema.safeParse(name).success);
  }

  private kept(relay: string, table: string): KeptEvidence[] {
    if (!named(relay, table)) return [];
    const path = this.evidencePath(relay, table);
    const file = readJsonFile(path);
    if (!file.exists) return [];
    const parsed = EvidenceFileSchema.safeParse(file.value);
    // Evidence is never dropped silently: a damaged file is an error the owner must look at.
    if (!parsed.success)
      throw new TrestleError("E_KEY_FILE", `${path} is not a trestle evidence file; move it aside to go on`);
    return parsed.data.items;
  }

  private headPath(relay: string, table: string): string {
    return join(this.home, "heads", relay, `${table}.json`);
  }

  private evidencePath(relay: string, table: string): string {
    return join(this.home, "heads", relay, "evidence", `${table}.json`);
  }

  /** Table ids named by `<id>.json` files in `dir`, sorted. */
  private jsonNames(dir: string): string[] {
    return this.names(dir)
      .filter((name) => name.endsWith(".json"))
      .map((name) => name.slice(0, -".json".length))
      .filter((table) => TableIdSchema.safeParse(table).success)
      .sort();
  }

  private names(dir: string): string[] {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  }
}

/** Whether `relay` and `table` are well-formed, so they can name files under the home. */
function named(relay: string, table: string): boolean {
  return PublicKeySchema.safeParse(relay).success && TableIdSchema.safeParse(table).success;
}
