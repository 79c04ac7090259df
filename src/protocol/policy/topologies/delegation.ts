/**
 * `delegation` topology: reporting lines from the lead (`reports`: manager -> direct reports, a
 * tree). The lead holds the floor first. The holder delegates down its line by addressing one
 * direct report (`to: [report]`, reason `delegate`); any other turn reports the result up to its
 * manager (reason `report`). A seat on a line addresses only its manager and its direct reports:
 * nobody speaks across lines. A lead turn that delegates nothing serves the oldest raised hand, or
 * else the lead keeps the floor; a seat outside the lines returns the floor to the lead. The lead
 * decides by default. Delegation has no rounds.
 */
import type { z } from "zod";
import type { DelegationTopologySchema } from "../../schemas/topology.js";
import { own } from "../../encoding/records.js";
import type { TableState } from "../state.js";
import { isPresent, notAllowed, oldestHand, type TopologyPolicy } from "./policy.js";

/** The delegation policy. */
export function delegationPolicy(topology: z.infer<typeof DelegationTopologySchema>): TopologyPolicy {
  const { lead, reports } = topology;
  const lines = Object.entries(reports);
  const managerOf = new Map<string, string>();
  for (const [manager, direct] of lines)
    for (const seat of direct) if (!managerOf.has(seat)) managerOf.set(seat, manager);
  const onLine = (seat: string) => seat === lead || managerOf.has(seat);
  const reportsOf = (seat: string): readonly string[] => own(reports, seat) ?? [];

  /** The first present seat up the line from `seat` (the lead for a seat off the lines), or null. */
  const upFrom = (state: TableState, seat: string): string | null => {
    let up = onLine(seat) ? managerOf.get(seat) : lead;
    for (let hops = 0; up !== undefined && hops <= managerOf.size; hops++) {
      if (isPresent(state, up)) return up;
      up = managerOf.get(up);
    }
    return null;
  };

  return {
    hasFloor: true,
    participants: [lead, ...lines.flatMap(([, direct]) => direct)],
    paths: [
      "topology.lead",
      ...lines.flatMap(([manager, direct]) => direct.map((_, i) => `topology.reports.${manager}[${i}]`)),
    ],
    finite: false,
    deciders: [lead],
    problems() {
      // Every manager must be reachable from the lead, so the lines form one tree (no detached cycles).
      const reached = new Set([lead]);
      const queue = [lead];
      for (let seat = queue.shift(); seat !== undefined; seat = queue.shift()) {
        for (const report of reportsOf(seat)) if (!reached.has(report)) (reached.add(report), queue.push(report));
      }
      return lines
        .filter(([manager]) => !reached.has(manager))
        .map(([manager]): [string, string] => [
          `topology.reports.${manager}`,
          `"${manager}" is not on a reporting line from the lead`,
        ]);
    },
    // A lead that left before the floor started (a shutdown needs no floor) holds nothing, as after its turn (admit closes: liveness.ts).
    start: (state) => ({ holder: isPresent(state, lead) ? lead : null, round: 1, reason: "start" }),
    next(state, turn) {
      const round = state.floor.round;
      const to = turn.to?.[0];
      if (to !== undefined && reportsOf(turn.seat).includes(to)) return { holder: to, round, reason: "delegate" };
      if (turn.seat === lead) return oldestHand(state, round);
      return { holder: upFrom(state, turn.seat), round, reason: onLine(turn.seat) ? "report" : "turn" };
    },
    granted(state, grant) {
      if (grant.reason === "delegate") state.floor.hands = state.floor.hands.filter((h) => h !== grant.holder);
    },
    checkAddressing(state, entry) {
      if (!entry.to || !onLine(entry.seat)) return;
      const manager = managerOf.get(entry.seat);
      const line = manager === undefined ? [...reportsOf(entry.seat)] : [manager, ...reportsOf(entry.seat)];
      const [to] = entry.to;
      if (entry.to.length !== 1 || to === undefined || !line.includes(to) || !isPresent(state, to)) {
        notAllowed(`"${entry.seat}" speaks only along its reporting line, to one of: ${line.join(", ")}`, { line });
      }
    },
  };
}
