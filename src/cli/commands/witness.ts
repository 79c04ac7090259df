/**
 * `trestle witness`: a C2SP tlog-witness on this machine (docs/CLI.md, SPEC §12): serves
 * add-checkpoint on 127.0.0.1 for the logs given with --log, cosigning with a key made once in the
 * home, and prints its verifier key and URL; runs until Ctrl-C. `--print-key` prints the verifier key only.
 */
import { logEntryLines, witnessedLogs, witnessVerifierKey } from "../../protocol/index.js";
import { integer } from "../args.js";
import { EXIT, UsageError } from "../exit.js";
import { interrupted } from "../interrupted.js";
import type { Command } from "./command.js";

/** `witness`: serves until interrupted (exit 0), or prints the key with --print-key. */
export const witness: Command = {
  name: "witness",
  summary: "run a transparency-log witness on this machine, cosigning the logs you name",
  flags: {
    log: {
      type: "string",
      multiple: true,
      value: "ORIGIN=VKEY",
      help: "witness the log of this origin, signed by this note verifier key (repeatable)",
    },
    port: { type: "string", value: "N", help: "listen on 127.0.0.1:N (default: a free port)" },
    "print-key": { type: "boolean", help: "print the witness's verifier key and exit" },
  },
  async run(ctx) {
    // Loaded here, not at the top: its server brings hono, which every other command would load for nothing.
    const { localWitnessKey, serveLocalWitness } = await import("../../witness/local.js");
    const key = await localWitnessKey(ctx.home);
    const vkey = witnessVerifierKey(key);
    if (ctx.args.values["print-key"] === true) {
      ctx.out.result([vkey], { name: key.name, verifier_key: vkey });
      return EXIT.OK;
    }
    const port = integer(ctx.args, "port", 0)!;
    if (port > 65_535) throw new UsageError("--port must be at most 65535");
    const entries = ctx.args.values.log;
    let logs;
    try {
      logs = witnessedLogs(logEntryLines((Array.isArray(entries) ? entries : []).join("\n")));
    } catch (error) {
      throw new UsageError(`--log: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (logs.size === 0) throw new UsageError("name at least one log to witness: --log ORIGIN=VKEY");
    const server = await serveLocalWitness({ home: ctx.home, logs, port, clock: ctx.io.clock }).catch(
      (error: unknown) => {
        throw new UsageError(
          `cannot listen on 127.0.0.1:${port}: ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    );
    const stop = interrupted();
    ctx.out.result(
      [`witness ${key.name} at ${server.url}`, `verifier key: ${vkey}`, `witnessing: ${[...logs.keys()].join(", ")}`],
      {
        url: server.url,
        port: server.port,
        name: key.name,
        verifier_key: vkey,
        logs: [...logs.keys()],
      },
    );
    ctx.out.notice(
      "logs submit checkpoints to POST <url>/add-checkpoint; its state and key are in <home>/witness/. Ctrl-C to stop",
    );
    await stop;
    await server.close();
    return EXIT.OK;
  },
};
