/**
 * A debate table made from the command line for the `trestle seat` tests: owners tao, jenny and
 * ops (their keys already in `home`), pro bot-tao, con bot-jenny, judge judge, all three seated;
 * and the table's authored entries as the judge reads them.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { cli } from "./cli.js";
import { uniqueTable } from "./client-table.js";

type Cli = ReturnType<typeof cli>;

/** Creates the debate (`rounds` rounds, an optional floor) as ops and seats all three bots; returns its id. */
export async function cliDebate(
  t: Cli,
  home: string,
  name: string,
  rounds: number,
  floor?: { max_chars: number },
): Promise<string> {
  const table = uniqueTable(name);
  const key = (owner: string) =>
    JSON.parse(readFileSync(join(home, "owners", `${owner}.json`), "utf8")).public_key as string;
  const config = {
    id: table,
    topic: "Should #459 ship before #461?",
    owners: { tao: { public_key: key("tao") }, jenny: { public_key: key("jenny") }, ops: { public_key: key("ops") } },
    seats: { "bot-tao": { owner: "tao" }, "bot-jenny": { owner: "jenny" }, judge: { owner: "ops" } },
    topology: { kind: "debate", pro: "bot-tao", con: "bot-jenny", judge: "judge", rounds },
    ...(floor ? { floor } : {}),
    termination: { any: ["decision", "rounds_exhausted"] },
  };
  writeFileSync(join(home, `${table}.json`), JSON.stringify(config));
  expect((await t.run(["create", join(home, `${table}.json`), "--owner", "ops"])).code).toBe(0);
  for (const [owner, seat] of [
    ["tao", "bot-tao"],
    ["jenny", "bot-jenny"],
    ["ops", "judge"],
  ]) {
    expect((await t.run(["join", "--table", table, "--seat", seat!, "--owner", owner!])).code).toBe(0);
  }
  return table;
}

/** The table's authored entries (kind, seat, body), in ledger order, read by the judge. */
export async function authoredEntries(t: Cli, table: string): Promise<{ kind: string; seat: string; body: string }[]> {
  const { body } = await t.json(["history", "--table", table, "--seat", "judge"]);
  const entries = body!.items as { kind: string; seat?: string; body?: string }[];
  return entries.filter((e) => e.kind !== "system").map((e) => ({ kind: e.kind, seat: e.seat!, body: e.body ?? "" }));
}
