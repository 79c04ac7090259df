/** Dispatch from a topology config to its rotation (one module per topology in topologies/). */
import type { Topology } from "../schemas/topology.js";
import { broadcastRotation } from "./topologies/broadcast.js";
import { debateRotation } from "./topologies/debate.js";
import { openRotation } from "./topologies/open.js";
import type { Rotation } from "./topologies/rotation.js";

/** The rotation for a topology; total over every topology kind. */
export function rotationOf(topology: Topology): Rotation {
  switch (topology.kind) {
    case "open":
      return openRotation();
    case "broadcast":
      return broadcastRotation(topology);
    case "debate":
      return debateRotation(topology);
  }
}
