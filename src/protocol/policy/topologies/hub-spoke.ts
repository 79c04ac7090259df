/**
 * `hub_spoke` topology: the hub (a moderator) holds the floor first and names who speaks next by
 * addressing one spoke (`to: [spoke]`); only that spoke gets the floor (reason `named`), and its
 * turn returns the floor to the hub, starting the next round. A hub turn that names nobody serves
 * the oldest raised hand, or else the hub keeps the floor. Spokes address only the hub. With
 * `rounds`, after round `rounds` the hub gets one closing turn (round rounds + 1) that names nobody,
 * after which the table closes (rounds_exhausted). The hub decides by default.
 */
import type { z } from "zod";
import type { HubSpokeTopologySchema } from "../../schemas/topology.js";
import { isPresent, notAllowed, oldestHand, type TopologyPolicy } from "./policy.js";

/** The hub-and-spoke policy. */
export function hubSpokePolicy(topology: z.infer<typeof HubSpokeTopologySchema>): TopologyPolicy {
  const { hub, spokes, rounds } = topology;
  /** The round of the hub's closing turn (never reached without `rounds`). */
  const closing = rounds === undefined ? Number.POSITIVE_INFINITY : rounds + 1;
  return {
    hasFloor: true,
    participants: [hub, ...spokes],
    paths: ["topology.hub", ...spokes.map((_, i) => `topology.spokes[${i}]`)],
    finite: rounds !== undefined,
    deciders: [hub],
    problems: () => [],
    // A hub that left before the floor started (a shutdown needs no floor) holds nothing, as after its turn (admit closes: liveness.ts).
    start: (state) => ({ holder: isPresent(state, hub) ? hub : null, round: 1, reason: "start" }),
    next(state, turn) {
      const round = state.floor.round;
      if (turn.seat !== hub) return { holder: isPresent(state, hub) ? hub : null, round: round + 1, reason: "turn" };
      if (round >= closing) return { exhausted: true };
      const named = turn.to?.[0];
      if (named !== undefined) return { holder: named, round, reason: "named" };
      return oldestHand(state, round);
    },
    granted(state, grant) {
      if (grant.reason === "named") state.floor.hands = state.floor.hands.filter((h) => h !== grant.holder);
    },
    checkAddressing(state, entry) {
      if (!entry.to) return;
      if (entry.seat === hub) {
        const [named] = entry.to;
        if (entry.to.length !== 1 || named === undefined || !spokes.includes(named) || !isPresent(state, named)) {
          notAllowed("the hub names exactly one present spoke", { spokes });
        }
        if (state.floor.holder === hub && state.floor.round >= closing)
          notAllowed("the hub's closing turn names nobody");
      } else if (spokes.includes(entry.seat) && (entry.to.length !== 1 || entry.to[0] !== hub)) {
        notAllowed(`a spoke speaks only to the hub: to: ["${hub}"]`, { to: [hub] });
      }
    },
  };
}
