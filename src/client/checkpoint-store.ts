/**
 * The checkpoint store (Node only), under the trestle home: for each table, the newest checkpoint
 * note of its relay's log this home verified, at <home>/heads/<relay key>/checkpoints/<table>.note,
 * so the next one read is checked to extend it (tlog-reader.ts `extends`) even by a new process.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PublicKeySchema, TableIdSchema } from "../protocol/index.js";
import { writeAtomically } from "./files.js";

/** Kept checkpoint notes in <home>/heads/<relay key>/checkpoints. */
export class CheckpointStore {
  constructor(private readonly home: string) {}

  /** The note kept for `table` at the relay with key `relay`, or null when none is (or the names are not a key and a table id). */
  load(relay: string, table: string): string | null {
    if (!PublicKeySchema.safeParse(relay).success || !TableIdSchema.safeParse(table).success) return null;
    try {
      return readFileSync(this.path(relay, table), "utf8");
    } catch {
      return null;
    }
  }

  /** Keeps `note` as the newest verified checkpoint of `table` at `relay`. */
  save(relay: string, table: string, note: string): void {
    if (!PublicKeySchema.safeParse(relay).success || !TableIdSchema.safeParse(table).success) return;
    writeAtomically(this.path(relay, table), note);
  }

  private path(relay: string, table: string): string {
    return join(this.home, "heads", relay, "checkpoints", `${table}.note`);
  }
}
