/**
 * The demo's readable transcript: narration, and every ledger entry as jenny's principal session
 * receives it (an owner session: chain-verified, heads checked against the pinned relay key), in
 * the CLI's own one-line format (`[#15] judge decision: …`). Lines are printed as they come (unless
 * quiet, for --json) and kept as plain text for the summary.
 */
import { entryLine } from "../text/format.js";
import { stylesFor, type Styles } from "../text/styles.js";
import type { Entry, HiddenEntry } from "../protocol/index.js";

const PLAIN = stylesFor(false);

/** Printed and recorded lines. */
export class Transcript {
  /** Every line, without colour. */
  readonly lines: string[] = [];
  readonly c: Styles;
  private held: (Entry | HiddenEntry)[] | null = null;

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

  /** A line of narration (what the demo does, not what the ledger says). */
  say(text: string): void {
    this.emit(`  ${text}`, this.c.dim(`  ${text}`));
  }

  /** Runs a command line and prints it with its output; entries that arrive meanwhile print after it, as its effect. */
  async command<R extends { stdout: string; stderr: string }>(args: readonly string[], run: () => Promise<R>): Promise<R> {
    this.emit(`$ trestle ${args.join(" ")}`, this.c.bold(`$ trestle ${args.join(" ")}`));
    this.held = [];
    try {
      const result = await run();
      for (const line of (result.stdout + result.stderr).trimEnd().split("\n")) if (line) this.emit(`  ${line}`, `  ${line}`);
      return result;
    } finally {
      const held = this.held;
      this.held = null;
      for (const item of held) this.entry(item);
    }
  }

  /** A ledger entry (held back while a command runs). */
  entry(item: Entry | HiddenEntry): void {
    if (this.held) this.held.push(item);
    else this.emit(entryLine(item, PLAIN), entryLine(item, this.c));
  }

  /** A check's outcome. */
  check(ok: boolean, text: string): void {
    this.emit(`${ok ? "✓" : "✗"} ${text}`, ok ? this.c.green(`✓ ${text}`) : this.c.red(`✗ ${text}`));
  }

  private emit(plain: string, styled: string): void {
    this.lines.push(...plain.split("\n"));
    this.write?.(`${styled}\n`);
  }
}
