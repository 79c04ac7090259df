/**
 * The demo's readable transcript: narration, and ledger entries as an owner's session receives
 * them (chain-verified, heads checked against the pinned relay key), in the CLI's own one-line
 * format (`[#15] judge decision: …`; a market's entries as `trestle market watch` prints them).
 * A line may carry a short note on what it shows (`← …`). Lines are printed as they come (unless
 * quiet, for --json) and kept as plain text for the summary.
 */
import { isEntry, type Entry, type HiddenEntry } from "../protocol/index.js";
import { entryLine } from "../text/format.js";
import { marketEntryText } from "../text/market.js";
import { stylesFor, type Styles } from "../text/styles.js";

const PLAIN = stylesFor(false);
/** The column a note starts at, when the line is shorter. */
const NOTE_COLUMN = 76;

/** Printed and recorded lines. */
export class Transcript {
  /** Every line, without colour. */
  readonly lines: string[] = [];
  readonly c: Styles;
  private held: { item: Entry | HiddenEntry; note: string | undefined }[] | null = null;
  /** Notes already printed: each is printed once, at the first line it explains. */
  private readonly noted = new Set<string>();

  constructor(
    private readonly write: ((text: string) => void) | null,
    color: boolean,
  ) {
    this.c = stylesFor(color);
  }

  /** A section heading. */
  section(title: string): void {
    this.emit(`\n── ${title} ──`, `\n${this.c.bold(`── ${title} ──`)}`);
  }

  /** A line of narration (what the demo does, not what the ledger says), with what it shows. */
  say(text: string, note?: string): void {
    this.emit(`  ${text}`, this.c.dim(`  ${text}`), note);
  }

  /** Runs a command line and prints it (with what it shows) and its output, at most `maxLines` of it; entries that arrive meanwhile print after it, as its effect. */
  async command<R extends { stdout: string; stderr: string }>(
    args: readonly string[],
    run: () => Promise<R>,
    options: { note?: string; maxLines?: number } = {},
  ): Promise<R> {
    const line = `$ trestle ${args.map(shellWord).join(" ")}`;
    this.emit(line, this.c.bold(line), options.note);
    this.held = [];
    try {
      const result = await run();
      const lines = (result.stdout + result.stderr)
        .trimEnd()
        .split("\n")
        .filter((line) => line !== "");
      const shown = lines.slice(0, options.maxLines ?? lines.length);
      for (const line of shown) this.emit(`  ${line}`, `  ${line}`);
      if (shown.length < lines.length) this.emit(`  …`, this.c.dim(`  …`));
      return result;
    } finally {
      const held = this.held;
      this.held = null;
      for (const { item, note } of held) this.entry(item, note);
    }
  }

  /** A ledger entry (held back while a command runs), with what it shows. */
  entry(item: Entry | HiddenEntry, note?: string): void {
    if (this.held) return void this.held.push({ item, note });
    const market = isEntry(item) ? marketEntryText(item) : null;
    if (market === null) return this.emit(entryLine(item, PLAIN), entryLine(item, this.c), note);
    this.emit(`[#${item.seq}] ${market}`, `${this.c.dim(`[#${item.seq}]`)} ${market}`, note);
  }

  /** A check's outcome. */
  check(ok: boolean, text: string): void {
    this.emit(`${ok ? "✓" : "✗"} ${text}`, ok ? this.c.green(`✓ ${text}`) : this.c.red(`✗ ${text}`));
  }

  /** Writes a line; a note not printed before goes after its first line, at NOTE_COLUMN when that line is shorter. */
  private emit(plain: string, styled: string, given?: string): void {
    const note = given === undefined || this.noted.has(given) ? undefined : given;
    if (note !== undefined) this.noted.add(note);
    const [first = "", ...rest] = plain.split("\n");
    const gap = note === undefined ? "" : " ".repeat(Math.max(2, NOTE_COLUMN - first.length));
    const marked = note === undefined ? "" : `${gap}← ${note}`;
    this.lines.push(first + marked, ...rest);
    const [styledFirst = "", ...styledRest] = styled.split("\n");
    this.write?.(`${[styledFirst + (marked && this.c.yellow(marked)), ...styledRest].join("\n")}\n`);
  }
}

/** `arg` as a POSIX shell reads it back as one word: bare when it holds only safe characters, else quoted. */
function shellWord(arg: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return /["$`\\!]/.test(arg) || !arg.includes("'") ? `'${arg.replaceAll("'", `'\\''`)}'` : `"${arg}"`;
}
