/** A table's ledger as one owner reads it (verified history), printed into the demo's transcript a step at a time: each entry once, with what it shows. */
import type { Reader, TableClient } from "../client/index.js";
import { isEntry, type Entry, type HiddenEntry } from "../protocol/index.js";
import type { Transcript } from "./transcript.js";

/** What an entry shows (a note after its line), undefined for none, or null to leave it out (the transcript is abridged). */
export type EntryNote = (entry: Entry) => string | null | undefined;

/** The entries of one table not printed yet, read and verified as `reader`. */
export class ShownLedger {
  private shown = 0;

  constructor(
    readonly client: TableClient,
    readonly reader: Reader,
  ) {}

  /** Prints every entry written since the last call (with `note`'s note, or none when it says null), and returns them all, printed or not. */
  async show(t: Transcript, note: EntryNote = () => undefined): Promise<(Entry | HiddenEntry)[]> {
    const { items } = await this.client.history(this.reader);
    const fresh = items.filter((item) => item.seq > this.shown);
    for (const item of fresh) {
      const said = isEntry(item) ? note(item) : undefined;
      if (said !== null) t.entry(item, said);
    }
    this.shown = Math.max(this.shown, ...fresh.map((item) => item.seq));
    return fresh;
  }
}
