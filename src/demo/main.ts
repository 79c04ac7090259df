/**
 * `npm run demo [-- <scenario>] [flags]`: finds or starts a relay, plays a scenario with scripted
 * seats, prints the transcript, and checks the outcome, failing loudly (exit 1) unless every check
 * holds. Scenarios (scenarios.ts): `debate` (the default: the #459/#461 session), `room` (two
 * owners' agents settle on a second-hand stroller under their mandates) and `market` (five owners
 * trade a dozen items: listings, matches, rooms, deals recorded).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { TrestleError } from "../protocol/index.js";
import { wantsColor, type TextSink } from "../text/styles.js";
import { DemoError } from "./errors.js";
import { repoRoot } from "./paths.js";
import { ensureRelay, type DemoRelay } from "./relay.js";
import { ChatFakes, ChatWebhooks, demoChatVars } from "./chat-fakes.js";
import { isScenario, SCENARIOS, type Played } from "./scenarios.js";
import { Transcript } from "./transcript.js";

/** Process-level inputs of the demo. */
export interface DemoIo {
  stdout: TextSink;
  stderr: TextSink;
  env: NodeJS.ProcessEnv;
}

/** The demo's exit codes (a signal ends it with 128 + the signal's number, as a shell reports it). */
export const DEMO_EXIT = { OK: 0, FAILED: 1, USAGE: 2 } as const;

/** Signals that end the demo early: the relay it started is stopped and its keys deleted first. */
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

const USAGE = `usage: npm run demo [-- [debate | room | market] [--relay URL] [--port N] [--chat-port N] [--out DIR] [--keep] [--json] [--no-color]]

  debate        the #459/#461 session (default)
  room          two owners' agents settle on a stroller in a room, under their mandates
  market        five owners' agents list a dozen items in a market; matches, rooms, deals
  --relay URL   play on this relay (it must be running); default: the local relay
  --port N      the local relay's port (default 8787); started with wrangler dev if none answers
  --chat-port N market: the port of the chat apps' stand-in the relay at --relay was started with
                (demoChatVars in src/demo/chat-fakes.ts); without it the market plays its groups only
                on a relay the demo starts itself
  --out DIR     where the exports are written (default ./demo-out)
  --keep        keep the work directory (keys, jenny's taskboard.json; the owners' mandates and journals)
  --json        print one JSON summary (with the transcript) instead of the transcript
  --no-color    never colour the output (NO_COLOR does the same)`;

/** Runs the demo with `argv`; resolves with its exit code. */
export async function main(argv: readonly string[], io: DemoIo): Promise<number> {
  let parsed: ReturnType<typeof parseDemoArgs>;
  try {
    parsed = parseDemoArgs(argv);
  } catch (error) {
    io.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return DEMO_EXIT.USAGE;
  }
  const { values, scenario } = parsed;
  if (values.help) {
    io.stdout.write(`${USAGE}\n`);
    return DEMO_EXIT.OK;
  }
  const json = values.json === true;
  const transcript = new Transcript(
    json ? null : (text) => io.stdout.write(text),
    wantsColor(io.stdout, io.env, values["no-color"] === true),
  );
  const log = (line: string) => transcript.say(line);
  const root = repoRoot();
  const work = mkdtempSync(resolve(tmpdir(), "trestle-demo-"));
  let relay: DemoRelay | null = null;
  let fakes: ChatFakes | null = null;
  let stopStarted: () => Promise<void> = async () => {};
  const removeWork = () => {
    if (values.keep === true) io.stderr.write(`kept the work directory ${work}\n`);
    else rmSync(work, { recursive: true, force: true });
  };
  // The relay runs in its own process group, so a signal to the demo does not reach it: stop it here.
  const interrupt = (signal: NodeJS.Signals) =>
    void stopStarted().finally(() => {
      removeWork();
      process.exit(128 + constants.signals[signal]);
    });
  for (const signal of STOP_SIGNALS) process.once(signal, interrupt);
  try {
    // The market plays its chat groups on a stand-in for the chat apps: one the relay was started with (--chat-port), or one it is started with here.
    fakes = scenario === "market" ? await ChatFakes.start(parsed.chatPort ?? 0) : null;
    const vars = fakes && parsed.chatPort === undefined ? demoChatVars(fakes.port) : undefined;
    relay = await ensureRelay({
      ...(values.relay ? { relay: values.relay } : {}),
      port: parsed.port,
      root,
      log,
      onSpawn: (stop) => (stopStarted = stop),
      ...(vars ? { vars } : {}),
    });
    const chats =
      fakes && (relay.started || parsed.chatPort !== undefined) ? { fakes, hooks: new ChatWebhooks(relay.url) } : null;
    const played = SCENARIOS[scenario];
    transcript.section(`trestle demo: ${played.title}`);
    transcript.say(
      `relay ${relay.url} (${relay.started ? "started by the demo; stopped at the end" : "already running"}), key ${relay.relayKey}`,
    );
    transcript.say(`work directory ${work} (${played.work})`);
    const result: Played = await played.play({
      relay,
      root,
      work,
      outDir: resolve(values.out ?? "demo-out"),
      transcript,
      chats,
    });
    const { checks, exportPath, verified, summary: fields } = result;
    transcript.section("checks");
    for (const check of checks) transcript.check(check.ok, check.text);
    const ok = checks.every((c) => c.ok);
    if (json) {
      const summary = {
        ok,
        scenario,
        relay: relay.url,
        ...fields,
        export: exportPath,
        checks,
        transcript: transcript.lines,
      };
      io.stdout.write(`${JSON.stringify(summary)}\n`);
    }
    if (!ok) {
      io.stderr.write(
        `DEMO FAILED: ${checks
          .filter((c) => !c.ok)
          .map((c) => c.text)
          .join("; ")}\n`,
      );
      return DEMO_EXIT.FAILED;
    }
    if (!json)
      io.stdout.write(
        `\n${transcript.c.green(transcript.c.bold("demo passed"))}: ${verified ?? `the export ${exportPath}`} verif${verified ? "y" : "ies"} CLEAN with trestle verify\n`,
      );
    return DEMO_EXIT.OK;
  } catch (error) {
    io.stderr.write(`DEMO FAILED: ${describe(error)}\n`);
    if (io.env.TRESTLE_DEBUG && error instanceof Error) io.stderr.write(`${error.stack}\n`);
    return DEMO_EXIT.FAILED;
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, interrupt);
    await relay?.stop();
    await fakes?.stop();
    removeWork();
  }
}

function parseDemoArgs(argv: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      relay: { type: "string" },
      port: { type: "string" },
      "chat-port": { type: "string" },
      out: { type: "string" },
      keep: { type: "boolean" },
      json: { type: "boolean" },
      "no-color": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (positionals.length > 1) throw new Error(`one scenario at most, not ${positionals.join(" ")}`);
  const scenario = positionals[0] ?? "debate";
  if (!isScenario(scenario)) throw new Error(`unknown scenario "${scenario}"`);
  const port = values.port === undefined ? 8787 : Number(values.port);
  if (!/^[0-9]{1,5}$/.test(values.port ?? "8787") || port < 1 || port > 65535)
    throw new Error(`--port must be a port number, not "${values.port}"`);
  const chatPort = values["chat-port"] === undefined ? undefined : Number(values["chat-port"]);
  if (chatPort !== undefined && (!/^[0-9]{1,5}$/.test(values["chat-port"]!) || chatPort < 1 || chatPort > 65535))
    throw new Error(`--chat-port must be a port number, not "${values["chat-port"]}"`);
  return { values, scenario, port, chatPort };
}

function describe(error: unknown): string {
  if (error instanceof TrestleError) return `${error.code}: ${error.message}`;
  if (error instanceof DemoError) return error.message;
  return `unexpected failure (a bug in the demo): ${error instanceof Error ? error.message : String(error)}`;
}
