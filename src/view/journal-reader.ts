/**
 * "Never left this machine": the private journals of this owner's seats (src/owner: records.ts,
 * one per seat and table at paths.ts's `<home>/private/<table>/<seat>.jsonl`), read for the principal window:
 * the agents' private rationale, their notes to the owner, what the owner-side guards refused, and
 * messages held for the owner's approval (with where the owner's answer stands). Nothing here was sent to a relay. A line that is not a
 * record of that seat and table is counted as unreadable, never shown as if it were one (the journal
 * is a file anyone with the owner's account can edit). Files are read again only when they change.
 * A held message is shown in the lines its caller gives (what it binds: src/text/commitment.ts).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { oneLine } from "../text/format.js";
import { SeatNameSchema } from "../protocol/index.js";
import { safeBody } from "./entry-view.js";
import { seatFiles } from "../owner/paths.js";
import { JournalRecordSchema, type JournalRecord, type JournalRecordOf } from "../owner/records.js";
import type { LocalItem } from "./wire.js";

/** The most recent items the window shows. */
export const LOCAL_ITEMS = 200;

/** What the journals hold for the window. */
export interface LocalRead {
  items: LocalItem[];
  /** Lines no record could be read from. */
  unreadable: number;
}

/** The lines a held message is shown with (each one safe line), from its record and the other records of its seat's journal (its sealed bids). */
export type HeldWords = (
  table: string,
  held: JournalRecordOf<"held">,
  records: readonly JournalRecord[],
) => Promise<string[]>;

interface Cached {
  stamp: string;
  records: JournalRecord[];
  states: Map<string, HeldState>;
  unreadable: number;
}

/** Reads the journals under one home, keeping what it read until a file changes. */
export class JournalReader {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly home: string) {}

  /** The newest items of the journals of `tables`, for the seats `mine` accepts, newest first; a held message in the lines `words` gives it. */
  async read(
    tables: Iterable<string>,
    mine: (table: string, seat: string) => boolean,
    words: HeldWords,
  ): Promise<LocalRead> {
    const shown: { record: ShownRecord; file: Cached }[] = [];
    let unreadable = 0;
    for (const table of tables) {
      for (const seat of this.seats(table)) {
        if (!mine(table, seat)) continue;
        const file = this.file(table, seat);
        for (const record of file.records) if (isShown(record)) shown.push({ record, file });
        unreadable += file.unreadable;
      }
    }
    shown.sort((a, b) => b.record.at - a.record.at);
    const items = await Promise.all(
      shown.slice(0, LOCAL_ITEMS).map(({ record, file }) => localItem(record, file, words)),
    );
    return { items, unreadable };
  }

  /** Seats with a journal at `table`. */
  private seats(table: string): string[] {
    try {
      return readdirSync(join(this.home, "private", table))
        .filter((name) => name.endsWith(".jsonl"))
        .map((name) => name.slice(0, -".jsonl".length))
        .filter((seat) => SeatNameSchema.safeParse(seat).success);
    } catch {
      return [];
    }
  }

  private file(table: string, seat: string): Cached {
    const path = seatFiles(this.home, table, seat).journal;
    const read: Cached = { stamp: "", records: [], states: new Map(), unreadable: 0 };
    try {
      const stat = statSync(path);
      read.stamp = `${stat.mtimeMs}:${stat.size}`;
    } catch {
      return read;
    }
    const cached = this.cache.get(path);
    if (cached?.stamp === read.stamp) return cached;
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      return { ...read, unreadable: 1 }; // not readable by this user: said, not hidden
    }
    for (const line of text.split("\n")) {
      if (line === "") continue;
      const parsed = JournalRecordSchema.safeParse(safeJson(line));
      if (!parsed.success || parsed.data.table !== table || parsed.data.seat !== seat) read.unreadable += 1;
      else read.records.push(parsed.data);
    }
    read.states = heldStates(read.records);
    this.cache.set(path, read);
    return read;
  }
}

type HeldState = NonNullable<LocalItem["held"]>["state"];

/** Where each held message stands by the journal's bookkeeping, as gate.ts pendingHeld reads it: sent, else rejected (a rejection wins), else approved, else pending. */
function heldStates(records: readonly JournalRecord[]): Map<string, HeldState> {
  const rank: Record<HeldState, number> = { pending: 0, approved: 1, rejected: 2, sent: 3 };
  const states = new Map<string, HeldState>();
  const raise = (hash: string, state: HeldState) => {
    if (rank[state] > rank[states.get(hash) ?? "pending"]) states.set(hash, state);
  };
  for (const r of records) {
    if (r.type === "sent") raise(r.message_sha256, "sent");
    else if (r.type === "gate_answer") raise(r.message_sha256, r.verdict === "reject" ? "rejected" : "approved");
  }
  return states;
}

/** A record as the panel shows it: when, where, what it is, its text as safe lines, and for a held message its words and where it stands. */
async function localItem(record: ShownRecord, file: Cached, words: HeldWords): Promise<LocalItem> {
  const where = { at: record.at, table: record.table, seat: record.seat, held: null };
  switch (record.type) {
    case "rationale":
      return {
        ...where,
        kind: "rationale",
        title: `private rationale${record.re?.seq === undefined ? "" : ` about #${record.re.seq}`}`,
        lines: safeBody(record.text),
      };
    case "owner_note": {
      const how =
        record.error !== undefined
          ? ` (not delivered: ${record.error})`
          : record.queued !== undefined
            ? " (sent to your chat apps)"
            : "";
      return { ...where, kind: "note", title: `note to you${how}`, lines: safeBody(record.text) };
    }
    case "refusal":
      return {
        ...where,
        kind: "refusal",
        title: oneLine(`refused by the ${record.guard} guard: ${record.code} (${record.reason})`),
        lines: [oneLine(`${record.kind}: ${record.message}`)],
      };
    case "held": {
      const held = {
        message_sha256: record.message_sha256,
        state: file.states.get(record.message_sha256) ?? "pending",
      };
      return {
        ...where,
        kind: "held",
        title: `held for your approval (${record.why})`,
        lines: await words(record.table, record, file.records),
        held,
      };
    }
  }
}

/** A journal record the window shows: rationale, notes, refusals and held messages (gate answers and sends are bookkeeping). */
type ShownRecord = JournalRecordOf<"rationale" | "owner_note" | "refusal" | "held">;

function isShown(record: JournalRecord): record is ShownRecord {
  return (
    record.type === "rationale" || record.type === "owner_note" || record.type === "refusal" || record.type === "held"
  );
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
