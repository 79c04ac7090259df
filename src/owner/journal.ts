/**
 * A seat's journal (records.ts): an append-only JSON Lines file on the owner's machine, mode 0600.
 * Each line is one schema-checked record; a line that does not parse is skipped and counted (an
 * owner can see it was tampered with), never trusted. Appends are single `write`s with O_APPEND,
 * so the CLI and the MCP server can share one journal. The one exception to append-only: a record
 * written just before a message that was then refused is blanked in place (`retract`), a line of
 * spaces of its length, so appends by another process are never moved or lost. Spending a gate approval is an exclusive
 * file creation, so one approval is spent once even by two processes at the same moment.
 */
import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { NonceSchema, parseOrThrow, TrestleError } from "../protocol/index.js";
import { seatFiles } from "./paths.js";
import { JournalRecordSchema, type JournalInput, type JournalRecord, type JournalRecordOf } from "./records.js";

/** What reading a journal found. */
export interface JournalRead {
  records: JournalRecord[];
  /** Lines that are not a record of the current format. */
  skipped: number;
}

/** One seat's journal at `path`, with its spent-approval folder `spentDir`. */
export class Journal {
  constructor(
    readonly path: string,
    private readonly spentDir: string,
    readonly where: { table: string; seat: string },
    private readonly clock: () => number,
  ) {}

  /** Appends `input` as one record (schema-checked first) and returns it. */
  append(input: JournalInput): JournalRecord {
    const record = parseOrThrow(
      JournalRecordSchema,
      { v: 1, at: this.clock(), ...this.where, ...input },
      "journal record",
    );
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    appendFileSync(this.path, JSON.stringify(record) + "\n", { mode: 0o600 });
    return record;
  }

  /** Blanks the line `append` wrote for `record` (spaces, the newline kept), so it is no record any more; nothing when the journal does not hold it. */
  retract(record: JournalRecord): void {
    const line = Buffer.from(JSON.stringify(record), "utf8");
    const at = this.bytes().indexOf(Buffer.concat([line, Buffer.from("\n")]));
    if (at < 0) return;
    const fd = openSync(this.path, "r+");
    try {
      writeSync(fd, Buffer.alloc(line.length, " "), 0, line.length, at);
    } finally {
      closeSync(fd);
    }
  }

  /** Every record, oldest first. */
  read(): JournalRead {
    const text = this.bytes().toString("utf8");
    const records: JournalRecord[] = [];
    let skipped = 0;
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      const parsed = JournalRecordSchema.safeParse(safeJson(line));
      if (parsed.success && parsed.data.table === this.where.table && parsed.data.seat === this.where.seat)
        records.push(parsed.data);
      else skipped += 1;
    }
    return { records, skipped };
  }

  /** The file's bytes; none when it does not exist yet. */
  private bytes(): Buffer {
    try {
      return readFileSync(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return Buffer.alloc(0);
      throw new TrestleError("E_KEY_FILE", `cannot read the journal ${this.path}: ${(error as Error).message}`);
    }
  }

  /** The records of one type, oldest first. */
  ofType<T extends JournalRecord["type"]>(type: T): JournalRecordOf<T>[] {
    return this.read().records.filter((r): r is JournalRecordOf<T> => r.type === type);
  }

  /** Spends gate approval `nonce` for good; false if it was already spent (here or by another process). */
  spend(nonce: string): boolean {
    const name = parseOrThrow(NonceSchema, nonce, "approval nonce");
    mkdirSync(this.spentDir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(join(this.spentDir, name), "", { flag: "wx", mode: 0o600 });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw error;
    }
  }

  /** Whether gate approval `nonce` was spent. */
  spent(nonce: string): boolean {
    return existsSync(join(this.spentDir, parseOrThrow(NonceSchema, nonce, "approval nonce")));
  }
}

/** The journal of `seat` at `table` under trestle home `home` (paths.ts), stamped by `clock`. */
export function seatJournal(home: string, table: string, seat: string, clock: () => number): Journal {
  const files = seatFiles(home, table, seat);
  return new Journal(files.journal, files.spent, { table, seat }, clock);
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
