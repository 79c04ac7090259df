/**
 * A room for the CLI tests of what reaches an agent under `--agent-view rules` (docs/ROOMS.md
 * "What reaches the agent"): one owner's room with a bot seat under a mandate holding the owner's
 * secrets (owner-secrets.ts) and a second seat to move the room; and the run every such test makes:
 * the bot's agent offers under the floor, is refused, and takes one more turn once the room moves.
 */
import { expect } from "vitest";
import type { cli } from "./cli.js";
import { uniqueTable } from "./client-table.js";
import { SECRETS } from "./owner-secrets.js";

type Cli = ReturnType<typeof cli>;

/** The room, its bot seat and the seat flags for a seat of it. */
export interface RulesRoom {
  table: string;
  bot: string;
  as(seat: string): string[];
}

/** `owner`'s room `label` (the owner's key already made) with seats `<owner>-bot`, under a mandate of SECRETS signed with --agent-view rules. */
export async function rulesRoom(t: Cli, owner: string, label: string): Promise<RulesRoom> {
  const table = uniqueTable(label);
  const as = (seat: string) => ["--table", table, "--seat", seat];
  expect(
    (await t.run(["room", "create", "--table", table, "--topic", "The house on Juniper Lane", "--owner", owner])).code,
  ).toBe(0);
  expect((await t.run(["join", ...as(`${owner}-bot`), "--owner", owner])).code).toBe(0);
  const secrets = SECRETS.never.flatMap((text) => ["--never-disclose", text]);
  const limits = ["--currency", SECRETS.currency, "--cap", String(SECRETS.cap), "--floor", String(SECRETS.floor)];
  expect(
    (
      await t.run([
        "mandate",
        "set",
        ...as(`${owner}-bot`),
        "--owner",
        owner,
        ...limits,
        ...secrets,
        "--agent-view",
        "rules",
      ])
    ).code,
  ).toBe(0);
  return { table, bot: `${owner}-bot`, as };
}

/** Seats `room`'s bot with `agent` (`--exec CMD` or `--a2a URL`), whose first answer is an offer under the floor and second a say: waits for the refusal, which gives the agent its second turn at once (nobody else writes), waits for the say, stops the seat. */
export async function refusedThenTurn(t: Cli, room: RulesRoom, agent: readonly string[]): Promise<void> {
  const seat = t.start(["seat", ...room.as(room.bot), ...agent]);
  await seat.printed(/turn refused: E_MANDATE \(floor\): .*; the agent is told so and answers again/);
  await seat.printed(/wrote say as entry #\d+/);
  seat.child.kill("SIGINT");
  expect((await seat.done).code).toBe(0);
}
