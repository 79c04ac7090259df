/**
 * Everything the CLI prints goes through here. Human text by default, with colour only when
 * stdout is a terminal and NO_COLOR is unset (https://no-color.org) and --no-color was not given;
 * with --json, exactly one JSON document per result on stdout (watch: one per line) and errors
 * as the trestle error envelope plus a hint. Never a stack trace, and never an error message as the
 * relay sent it: it is reduced to one safe line (no escape sequence reaches the terminal).
 */
import { safeLine } from "../text/framing.js";
import { TrestleError } from "../protocol/index.js";
import { UsageError } from "./exit.js";
import { hintFor } from "../text/hints.js";
import { stylesFor, type Styles, type TextSink } from "../text/styles.js";

/** The CLI's printer. */
export class Output {
  /** Styles for stdout: colour only when `color` allows it and stdout is a TTY. */
  readonly c: Styles;
  /** Styles for stderr (notes, warnings, errors): judged by stderr's own TTY, so `2> file` gets no escapes. */
  readonly e: Styles;

  constructor(
    readonly json: boolean,
    color: boolean,
    private readonly stdout: TextSink,
    private readonly stderr: TextSink,
  ) {
    this.c = stylesFor(color && stdout.isTTY === true);
    this.e = stylesFor(color && stderr.isTTY === true);
  }

  /** A command's result: `human` lines, or `data` as one JSON document. */
  result(human: string | readonly string[], data: unknown): void {
    if (this.json) this.stdout.write(JSON.stringify(data) + "\n");
    else for (const line of typeof human === "string" ? [human] : human) this.stdout.write(line + "\n");
  }

  /** One line of a stream (watch): human text, or one JSON object per line. */
  line(human: string, data: unknown): void {
    this.stdout.write((this.json ? JSON.stringify(data) : human) + "\n");
  }

  /** Progress and notices for people: stderr, and silent under --json. */
  notice(text: string): void {
    if (!this.json) this.stderr.write(this.e.dim(text) + "\n");
  }

  /** A loud warning on stderr, also under --json. */
  warn(text: string): void {
    this.stderr.write(this.e.yellow(text) + "\n");
  }

  /** Reports an error: code, message and hint; JSON envelope under --json. A usage error's hint names `command`'s help when it is known. */
  error(error: unknown, command?: string): void {
    const { code, message, details } = describe(error);
    const hint =
      error instanceof TrestleError
        ? hintFor(error.code)
        : error instanceof UsageError
          ? `run trestle help${command === undefined ? "" : ` ${command}`}`
          : undefined;
    if (this.json) {
      const body: Record<string, unknown> = { code, message };
      if (details !== undefined) body.details = details;
      if (hint !== undefined) body.hint = hint;
      this.stdout.write(JSON.stringify({ error: body }) + "\n");
      return;
    }
    this.stderr.write(`${this.e.red(this.e.bold(`error ${code}`))}: ${safeLine(message, 2000)}\n`);
    if (hint) this.stderr.write(`${this.e.dim("hint:")} ${hint}\n`);
  }
}

function describe(error: unknown): { code: string; message: string; details?: Record<string, unknown> } {
  if (error instanceof TrestleError)
    return { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
  if (error instanceof UsageError) return { code: "E_USAGE", message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { code: "E_BUG", message: `unexpected failure (a bug in trestle): ${message}` };
}
