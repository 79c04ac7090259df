/**
 * Text styles every surface shares (the CLI, the MCP server, the principal window, the demo): ANSI
 * styles that are identity functions when colour is off, and when colour is on at all (a TTY, no
 * NO_COLOR per https://no-color.org, no --no-color).
 */
/** A writable text stream (the standard output or error stream, or a test's). */
export interface TextSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** ANSI styles; identity functions when colour is off. */
export interface Styles {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

/** The environment variables colour depends on (the environment of the program, or a test's). */
export type Environment = Readonly<Record<string, string | undefined>>;

const style = (on: boolean, open: number, close: number) => (text: string) =>
  on ? `\u001b[${open}m${text}\u001b[${close}m` : text;

/** Whether to colour: a TTY, no NO_COLOR, no --no-color. */
export function wantsColor(sink: TextSink, env: Environment, noColorFlag: boolean): boolean {
  return sink.isTTY === true && colorAllowed(env, noColorFlag);
}

/** Whether colour is allowed at all: NO_COLOR unset or empty (no-color.org) and no --no-color; each stream still needs a TTY. */
export function colorAllowed(env: Environment, noColorFlag: boolean): boolean {
  return !noColorFlag && !env.NO_COLOR;
}

/** ANSI styles when `color`, identity functions otherwise. */
export function stylesFor(color: boolean): Styles {
  return {
    bold: style(color, 1, 22),
    dim: style(color, 2, 22),
    red: style(color, 31, 39),
    green: style(color, 32, 39),
    yellow: style(color, 33, 39),
    cyan: style(color, 36, 39),
  };
}
