/** Dispatch from a topology config to its policy (one module per topology in topologies/). */
import type { Topology } from "../schemas/topology.js";
import { broadcastPolicy } from "./topologies/broadcast.js";
import { debatePolicy } from "./topologies/debate.js";
import { delegationPolicy } from "./topologies/delegation.js";
import { hubSpokePolicy } from "./topologies/hub-spoke.js";
import { openPolicy } from "./topologies/open.js";
import { pipelinePolicy } from "./topologies/pipeline.js";
import type { TopologyPolicy } from "./topologies/policy.js";

/** The policy for a topology; total over every topology kind. */
export function topologyOf(topology: Topology): TopologyPolicy {
  switch (topology.kind) {
    case "open":
      return openPolicy();
    case "broadcast":
      return broadcastPolicy(topology);
    case "debate":
      return debatePolicy(topology);
    case "pipeline":
      return pipelinePolicy(topology);
    case "hub_spoke":
      return hubSpokePolicy(topology);
    case "delegation":
      return delegationPolicy(topology);
  }
}
