/**
 * An agent that is a command (`trestle seat --exec`, docs/AGENTS.md): each turn runs it with
 * `/bin/sh -c` in a process group of its own, the turn on stdin (framed text, or JSON), the turn's
 * facts in its environment (agent-turn.ts turnEnv), and reads what it prints on stdout as the entry.
 * A run past the timeout (the whole group is killed), a non-zero exit, more than MAX_OUTPUT bytes
 * on stdout (killed at once) or output that is not UTF-8 is E_AGENT; only a finished, successful
 * run's whole output is ever read, so nothing half-written is sent. A non-zero exit's refusal quotes
 * the end of what the command printed on stdout and stderr (its own words, often why it stopped),
 * each cleaned to one safe line and bounded.
 */
import { spawn } from "node:child_process";
import { safeJson, safeLine } from "../text/framing.js";
import { agentFailed, turnEnv, turnJson, turnText, type AgentTurn } from "./agent-turn.js";
import type { SeatAgent } from "./seat-driver.js";

/** The most a command may print on stdout for one turn, in bytes (far above any table's max_chars). */
export const MAX_OUTPUT = 1 << 20;

/** The most of the end of each stream a non-zero exit's refusal quotes, in characters. */
export const WORDS_CHARS = 300;

/** How the command runs. */
export interface ExecAgentOptions {
  /** The shell command line. */
  command: string;
  /** Give the turn as JSON on stdin instead of framed text. */
  json: boolean;
  timeoutMs: number;
  /** The environment the command starts from (the turn's variables are added). */
  env: Record<string, string | undefined>;
  /** A fresh random data-block boundary (16-64 of [A-Za-z0-9]). */
  boundary(): string;
}

/** The command as a seat's agent. */
export function execAgent(options: ExecAgentOptions): SeatAgent {
  return {
    driver: "exec",
    async turn(turn, signal) {
      const input = options.json ? turnJson(turn) : turnText(turn, options.boundary());
      return { text: await runOnce(options, turn, input, signal) };
    },
  };
}

/** Runs the command once with `input` on stdin; its whole stdout, or E_AGENT. */
function runOnce(options: ExecAgentOptions, turn: AgentTurn, input: string, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", options.command], {
      detached: true,
      env: { ...options.env, ...turnEnv(turn) },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Uint8Array[] = [];
    let size = 0;
    let stderr = "";
    const stderrText = new TextDecoder();
    let stopped: Error | null = null;
    const kill = (why: Error) => {
      stopped ??= why;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // The group is already gone.
      }
    };
    const seconds = Math.round(options.timeoutMs / 100) / 10;
    const timer = setTimeout(
      () =>
        kill(
          agentFailed(
            "timeout",
            `the command ran past its timeout of ${seconds} s and was killed; nothing was written`,
            { timeout_ms: options.timeoutMs },
          ),
        ),
      options.timeoutMs,
    );
    const abort = () =>
      kill(agentFailed("failed", "the seat stopped while the command ran; it was killed and nothing was written"));
    signal.addEventListener("abort", abort, { once: true });
    child.stdout.on("data", (chunk: Uint8Array) => {
      size += chunk.length;
      if (size > MAX_OUTPUT)
        return kill(
          agentFailed(
            "too_large",
            `the command printed more than ${MAX_OUTPUT} bytes and was killed; nothing was written`,
            { max_bytes: MAX_OUTPUT },
          ),
        );
      out.push(chunk);
    });
    child.stderr.on(
      "data",
      (chunk: Uint8Array) => (stderr = (stderr + stderrText.decode(chunk, { stream: true })).slice(-4 * WORDS_CHARS)),
    );
    child.stdin.on("error", () => {}); // a command that does not read its stdin closes the pipe early: that is its choice
    child.stdin.end(input);
    child.on("error", (error) => kill(agentFailed("failed", `the command could not start: ${error.message}`)));
    child.on("close", (code, killedBy) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", abort);
      if (stopped) return reject(stopped);
      if (code !== 0) {
        const said = ownWords(new TextDecoder().decode(concat(out, size)), stderr + stderrText.decode());
        return reject(
          agentFailed(
            "exit",
            `the command exited with ${code === null ? `signal ${killedBy}` : `status ${code}`}; nothing was written${said}`,
            { status: code, signal: killedBy },
          ),
        );
      }
      try {
        resolve(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(concat(out, size)));
      } catch {
        reject(agentFailed("not_an_entry", "the command's output is not UTF-8 text; nothing was written"));
      }
    });
  });
}

/** The end of what the command printed, quoted as its own words ("" when it printed nothing readable). */
function ownWords(stdout: string, stderr: string): string {
  const quoted = [
    ["stdout", tailLine(stdout)],
    ["stderr", tailLine(stderr)],
  ].flatMap(([name, line]) => (line === "" ? [] : [`on ${name} ${safeJson(line)}`]));
  return quoted.length === 0 ? "" : `. Its own last words (not trestle's): ${quoted.join("; ")}`;
}

/** The end of `text` as one safe line (framing.ts safeLine) of at most WORDS_CHARS characters, "…" first when cut. */
function tailLine(text: string): string {
  const cut = text.length > 4 * WORDS_CHARS;
  const chars = [...safeLine(text.slice(-4 * WORDS_CHARS), Number.MAX_SAFE_INTEGER)];
  return cut || chars.length > WORDS_CHARS ? `…${chars.slice(-(WORDS_CHARS - 1)).join("")}` : chars.join("");
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}
