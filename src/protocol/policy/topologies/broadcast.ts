/** `broadcast` topology: round-robin over `order`, for `rounds` rounds or without end. */
import type { z } from "zod";
import type { BroadcastTopologySchema } from "../../schemas/topology.js";
import type { TopologyPolicy } from "./policy.js";
import { nextInRounds, rotationPolicy } from "./rotation.js";

/** The broadcast policy: slot (r, p) is order[p] while r <= rounds; a raised hand is served after any turn. */
export function broadcastPolicy(topology: z.infer<typeof BroadcastTopologySchema>): TopologyPolicy {
  const { order, rounds } = topology;
  return rotationPolicy({
    participants: [...order],
    paths: order.map((_, i) => `topology.order[${i}]`),
    finite: rounds !== undefined,
    slot: (at) => {
      if (rounds !== undefined && at.round > rounds) return null;
      const seat = order[at.pos];
      return seat === undefined ? null : { seat, reason: "turn" };
    },
    next: (at) => nextInRounds(at, order.length),
  });
}
