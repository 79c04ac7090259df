/** `broadcast` topology: round-robin over `order`, for `rounds` rounds or without end. */
import type { z } from "zod";
import type { BroadcastTopologySchema } from "../../schemas/topology.js";
import { nextInRounds, type Rotation } from "./rotation.js";

/** The broadcast rotation: slot (r, p) is order[p] while r <= rounds. */
export function broadcastRotation(topology: z.infer<typeof BroadcastTopologySchema>): Rotation {
  const { order, rounds } = topology;
  return {
    hasFloor: true,
    participants: [...order],
    paths: order.map((_, i) => `topology.order[${i}]`),
    finite: rounds !== undefined,
    slot: (at) => {
      if (rounds !== undefined && at.round > rounds) return null;
      const seat = order[at.pos];
      return seat === undefined ? null : { seat, reason: "turn" };
    },
    next: (at) => nextInRounds(at, order.length),
  };
}
