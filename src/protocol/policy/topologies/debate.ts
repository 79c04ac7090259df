/**
 * `debate` topology: each round pro[0], con[0], pro[1], con[1], ...; after `rounds` rounds the
 * judge holds the floor for one final slot (round rounds + 1). The judge decides by default.
 */
import type { z } from "zod";
import { seatList, type DebateTopologySchema } from "../../schemas/topology.js";
import type { TopologyPolicy } from "./policy.js";
import { nextInRounds, rotationPolicy } from "./rotation.js";

/** The debate policy: interleaved sides per round, then the judge once; a raised hand is served after any turn. */
export function debatePolicy(topology: z.infer<typeof DebateTopologySchema>): TopologyPolicy {
  const pro = seatList(topology.pro);
  const con = seatList(topology.con);
  const turns: string[] = [];
  const paths: string[] = [];
  for (let i = 0; i < Math.max(pro.length, con.length); i++) {
    if (pro[i] !== undefined)
      (turns.push(pro[i]!), paths.push(Array.isArray(topology.pro) ? `topology.pro[${i}]` : "topology.pro"));
    if (con[i] !== undefined)
      (turns.push(con[i]!), paths.push(Array.isArray(topology.con) ? `topology.con[${i}]` : "topology.con"));
  }
  const { judge, rounds } = topology;
  return rotationPolicy(
    {
      participants: [...turns, judge],
      paths: [...paths, "topology.judge"],
      finite: true,
      slot: (at) => {
        if (at.round <= rounds) {
          const seat = turns[at.pos];
          return seat === undefined ? null : { seat, reason: "turn" };
        }
        return at.round === rounds + 1 && at.pos === 0 ? { seat: judge, reason: "judge" } : null;
      },
      next: (at) => (at.round <= rounds ? nextInRounds(at, turns.length) : { round: at.round + 1, pos: 0 }),
    },
    { deciders: [judge] },
  );
}
