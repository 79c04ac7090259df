/**
 * The demo's scenarios (`npm run demo -- <scenario>`): each plays on a relay, returns its checks,
 * the export it wrote and the fields its --json summary adds. `debate` is the #459/#461 session,
 * `room` two owners' agents settling on a stroller (docs/ROOMS.md), `market` five owners trading a
 * dozen items through a market's matches and rooms (docs/MARKETS.md).
 */
import { checksOf, verdictOf } from "./checks.js";
import { marketChecksOf } from "./market-checks.js";
import { playMarket } from "./market.js";
import { shortPath } from "./paths.js";
import { roomChecksOf } from "./room-checks.js";
import { playRoom } from "./room.js";
import { playDebate } from "./debate.js";
import type { ScenarioOptions } from "./scenario-options.js";

/** What a scenario played. */
export interface Played {
  checks: { name: string; ok: boolean; text: string }[];
  exportPath: string;
  /** What the last line says verifies CLEAN, when more than the export at exportPath. */
  verified?: string;
  /** Scenario fields of the --json summary. */
  summary: Record<string, unknown>;
}

/** A scenario: its heading, what its work directory holds, and how it plays. */
export interface Scenario {
  title: string;
  work: string;
  play(options: ScenarioOptions): Promise<Played>;
}

/** A scenario that plays to an outcome, checks it, and reports it (`ok`: whether the named check held). */
function scenario<O>(
  title: string,
  work: string,
  play: (options: ScenarioOptions) => Promise<O>,
  checksOf: (outcome: O) => Played["checks"],
  report: (outcome: O, ok: (name: string) => boolean, options: ScenarioOptions) => Omit<Played, "checks">,
): Scenario {
  return {
    title,
    work,
    async play(options) {
      const outcome = await play(options);
      const checks = checksOf(outcome);
      return { checks, ...report(outcome, (name) => checks.find((c) => c.name === name)?.ok ?? false, options) };
    },
  };
}

/** Every scenario by name; `debate` is the default. */
export const SCENARIOS = {
  debate: scenario("the #459/#461 session", "keys; jenny's taskboard.json", playDebate, checksOf, (o, ok) => ({
    exportPath: o.exportPath,
    summary: {
      table: o.table,
      task: o.task,
      task_state: o.taskState,
      verify: verdictOf(o),
      note_absent: ok("note_absent"),
    },
  })),
  room: scenario(
    "a room: sara sells a stroller, ben buys it",
    "sara's and ben's homes: keys, mandates, journals",
    playRoom,
    roomChecksOf,
    (o, ok) => ({
      exportPath: o.exportPath,
      summary: {
        table: o.table,
        outcome: o.outcome,
        deal: o.deal,
        verify: verdictOf(o),
        deal_signed: ok("deal_signed"),
        floor_absent: ok("floor_absent"),
        cap_absent: ok("cap_absent"),
      },
    }),
  ),
  market: scenario(
    "a market: five parents trade a dozen items of used baby gear",
    "five owners' homes: keys, mandates, journals",
    playMarket,
    marketChecksOf,
    (o, _ok, options) => ({
      exportPath: o.exports[0]!.path,
      verified: `the exports of the market and its ${o.rooms.length} rooms in ${shortPath(options.outDir)}`,
      summary: {
        market: o.market,
        matches: o.matches.length,
        rooms: o.rooms.map((r) => ({
          room: r.room,
          match: r.match,
          outcome: r.outcome,
          price: r.price,
          deal: r.dealStatus,
          recorded: r.recorded,
        })),
        verify: Object.fromEntries(o.exports.map((x) => [x.table, verdictOf(x)])),
      },
    }),
  ),
} satisfies Record<string, Scenario>;

/** A scenario's name. */
export type ScenarioName = keyof typeof SCENARIOS;

/** Whether `name` names a scenario. */
export function isScenario(name: string): name is ScenarioName {
  return Object.hasOwn(SCENARIOS, name);
}
