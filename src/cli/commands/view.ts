/**
 * `trestle view`: the principal window (docs/VIEW.md). Serves a page on 127.0.0.1 from this
 * machine that shows every table the owner has at the relay, live and verified, and signs
 * approvals, rejections, pauses and resumes with the owner key, which never leaves this process.
 * Prints the URL to open (its fragment carries the window's random token) and runs until Ctrl-C.
 * With one owner key in the home, no flag is needed.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { TableIdSchema } from "../../protocol/index.js";
import { integer, optional, OWNER_FLAGS } from "../args.js";
import type { Context } from "../context.js";
import { EXIT, UsageError } from "../exit.js";
import { assetDir, loadAssets } from "../../view/assets.js";
import { OwnerWindow } from "../../view/owner-window.js";
import { serveWindow } from "../../view/server.js";
import { interrupted } from "../interrupted.js";
import type { Command } from "./command.js";

/** `view`: serves the window until interrupted (exit 0). */
export const view: Command = {
  name: "view",
  summary: "the principal window: your tables live in a local browser page; approve, reject, pause, resume",
  flags: {
    ...OWNER_FLAGS,
    owner: { ...OWNER_FLAGS.owner!, help: "the owner (default $TRESTLE_OWNER, else the only owner key in the home)" },
    table: {
      type: "string",
      multiple: true,
      value: "ID",
      help: "also follow this table (repeatable); every table the home holds a head for is followed anyway",
    },
    port: { type: "string", value: "N", help: "listen on 127.0.0.1:N (default: a free port)" },
  },
  async run(ctx) {
    const port = integer(ctx.args, "port", 0)!;
    if (port > 65_535) throw new UsageError("--port must be at most 65535");
    const { owner, key } = await ctx.owner(onlyOwner(ctx));
    const assets = loadAssets(assetDir());
    const tables = ctx.args.values.table;
    for (const table of Array.isArray(tables) ? tables : []) {
      if (!TableIdSchema.safeParse(table).success)
        throw new UsageError(`--table "${table}" is not a table id (3-64 of [a-z0-9._-])`);
    }
    const principal = await OwnerWindow.open({
      relay: ctx.http(),
      home: ctx.home,
      owner: { name: owner, signer: key.signer },
      tables: Array.isArray(tables) ? tables : [],
      clock: ctx.io.clock,
      onFirstUse: ctx.firstUse,
    });
    const server = await serveWindow({ backend: principal, assets, port }).catch((error: unknown) => {
      principal.close();
      throw new UsageError(
        `cannot listen on 127.0.0.1:${port}: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    // Listening for Ctrl-C before the URL is printed: whoever acts on the URL may stop the window at once.
    const stop = interrupted();
    ctx.out.result([`principal window for owner ${owner} at ${ctx.relayUrl}:`, `  ${server.url}`], {
      url: server.url,
      port: server.port,
      owner,
      relay: ctx.relayUrl,
    });
    ctx.out.notice(
      "open it in a browser on this machine; keep it to yourself: the part after # lets a page ask this window to sign with your key. Ctrl-C to stop",
    );
    await stop;
    await server.close();
    principal.close();
    return EXIT.OK;
  },
};

/** The owner a home with exactly one owner key has, when --owner and TRESTLE_OWNER name none. */
function onlyOwner(ctx: Context): string | undefined {
  if (optional(ctx.args, "owner", "TRESTLE_OWNER", ctx.io.env) !== undefined) return undefined;
  let names: string[] = [];
  try {
    names = readdirSync(join(ctx.home, "owners")).filter((name) => name.endsWith(".json"));
  } catch {
    // No owners/ folder: no key.
  }
  if (names.length === 1) return names[0]!.slice(0, -".json".length);
  if (names.length === 0)
    throw new UsageError(
      `no owner key in ${ctx.home}: create one with trestle keygen --owner NAME, or name it with --owner`,
    );
  throw new UsageError(
    `this home has ${names.length} owner keys: name one with --owner (${names.map((n) => n.slice(0, -".json".length)).join(", ")})`,
  );
}
