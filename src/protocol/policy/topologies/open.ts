/** `open` topology (rooms): no floor, no rotation; any seated seat writes at any time. */
import type { TopologyPolicy } from "./policy.js";

/** The open policy: no floor. A human the bot-depth rule handed the floor to releases it with their entry. */
export function openPolicy(): TopologyPolicy {
  return {
    hasFloor: false,
    participants: [],
    paths: [],
    finite: false,
    deciders: "any",
    problems: () => [],
    start: () => ({ exhausted: true }),
    next: () => ({ holder: null, round: 0, reason: "human_done" }),
    granted: () => undefined,
    checkAddressing: () => undefined,
  };
}
