/**
 * `pipeline` topology: ordered stages, for `rounds` passes (1 when omitted). Each stage's output is
 * the next stage's input: the stage holding the floor addresses its say or proposal to exactly the
 * next present stage (`to: [next]`), or to nobody when the pipeline ends with it. Raised hands are
 * served between rounds (after the last stage, before the first stage again or the end), so a
 * hand never comes between one stage's output and the next stage. The last stage decides by default.
 */
import type { z } from "zod";
import type { PipelineTopologySchema } from "../../schemas/topology.js";
import { notAllowed, type TopologyPolicy } from "./policy.js";
import { nextInRounds, rotationPolicy, scanRotation, type Rotation } from "./rotation.js";

/** The pipeline policy: stage after stage, round after round, outputs addressed down the line. */
export function pipelinePolicy(topology: z.infer<typeof PipelineTopologySchema>): TopologyPolicy {
  const { stages } = topology;
  const rounds = topology.rounds ?? 1;
  const rotation: Rotation = {
    participants: [...stages],
    paths: stages.map((_, i) => `topology.stages[${i}]`),
    finite: true,
    slot: (at) => {
      const seat = at.round <= rounds ? stages[at.pos] : undefined;
      return seat === undefined ? null : { seat, reason: "turn" };
    },
    next: (at) => nextInRounds(at, stages.length),
  };
  return rotationPolicy(rotation, {
    deciders: [stages[stages.length - 1]!],
    // Between rounds: the last present stage of a round has had its turn, so the next present
    // stage (if any) is in a later round. Stages that left are skipped, the last one included.
    servesHands: (state) => {
      const { cursor } = state.floor;
      const next = scanRotation(rotation, state);
      return cursor.pos === 0 || next === null || next.at.round > cursor.round;
    },
    checkAddressing(state, entry) {
      if (entry.kind !== "say" && entry.kind !== "proposal") return;
      if (state.floor.holder !== entry.seat || !stages.includes(entry.seat)) return;
      const next = scanRotation(rotation, state)?.seat ?? null;
      if (next === null) {
        if (entry.to) notAllowed('the pipeline ends with this stage: send its output without "to"', { to: null });
      } else if (entry.to?.length !== 1 || entry.to[0] !== next) {
        notAllowed(`a pipeline stage's output is the next stage's input: send it with to: ["${next}"]`, { to: [next] });
      }
    },
  });
}
