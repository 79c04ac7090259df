/**
 * Turns for tests of the agents behind a seat (src/owner/agent-turn.ts): a projection of seat
 * bot-tao at table t-unit, on an open table (a room) or holding the floor of a one-round debate.
 */
import type { Projection } from "../../src/protocol/index.js";

/** Seat bot-tao's projection at t-unit (max_chars 20): `open`, or holding the floor of a debate; `tail` its entries. */
export function unitProjection(kind: "open" | "debate", tail: Projection["tail"] = []): Projection {
  const topology = kind === "open" ? { kind } : { kind, pro: "bot-tao", con: "bot-jenny", judge: "judge", rounds: 1 };
  return {
    table: "t-unit",
    seat: "bot-tao",
    prefix: {
      table: "t-unit",
      topic: "A stroller",
      rules: { topology, floor: { max_chars: 20 }, termination: { any: ["decision"] } },
      seats: [],
      decisions: [],
    },
    prefix_sha256: "00".repeat(32),
    tail,
    cursor: tail.at(-1)?.seq ?? 0,
    more: false,
    floor: { holder: kind === "open" ? null : "bot-tao", round: 1, yours: kind !== "open" },
    closed: null,
    pauses: [],
    tasks: [],
  };
}
