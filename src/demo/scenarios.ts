/**
 * The demo's scenarios (`npm run demo -- <scenario>`): each plays on a relay, returns its checks,
 * the export it wrote and the fields its --json summary adds. `debate` is the #459/#461 session,
 * `room` two owners' agents settling on a stroller (docs/ROOMS.md).
 */
import { checksOf, verdictOf } from "./checks.js";
import { roomChecksOf } from "./room-checks.js";
import { playRoom } from "./room.js";
import { playSession459, type SessionOptions } from "./session-459.js";

/** What a scenario played. */
export interface Played {
  checks: { name: string; ok: boolean; text: string }[];
  exportPath: string;
  /** Scenario fields of the --json summary. */
  summary: Record<string, unknown>;
}

/** A scenario: its heading, what its work directory holds, and how it plays. */
export interface Scenario {
  title: string;
  work: string;
  play(options: SessionOptions): Promise<Played>;
}

/** Every scenario by name; `debate` is the default. */
export const SCENARIOS = {
  debate: {
    title: "the #459/#461 session",
    work: "keys; jenny's taskboard.json",
    async play(options) {
      const outcome = await playSession459(options);
      const checks = checksOf(outcome);
      const summary = {
        table: outcome.table,
        task: outcome.task,
        task_state: outcome.taskState,
        verify: verdictOf(outcome),
        note_absent: checks.find((c) => c.name === "note_absent")?.ok ?? false,
      };
      return { checks, exportPath: outcome.exportPath, summary };
    },
  },
  room: {
    title: "a room: sara sells a stroller, ben buys it",
    work: "sara's and ben's homes: keys, mandates, journals",
    async play(options) {
      const outcome = await playRoom(options);
      const checks = roomChecksOf(outcome);
      const ok = (name: string) => checks.find((c) => c.name === name)?.ok ?? false;
      const summary = {
        table: outcome.table,
        outcome: outcome.outcome,
        deal: outcome.deal,
        verify: verdictOf(outcome),
        deal_signed: ok("deal_signed"),
        floor_absent: ok("floor_absent"),
        cap_absent: ok("cap_absent"),
      };
      return { checks, exportPath: outcome.exportPath, summary };
    },
  },
} satisfies Record<string, Scenario>;

/** A scenario's name. */
export type ScenarioName = keyof typeof SCENARIOS;

/** Whether `name` names a scenario. */
export function isScenario(name: string): name is ScenarioName {
  return Object.hasOwn(SCENARIOS, name);
}
