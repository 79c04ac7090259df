/**
 * The viewer's line about its live connection, in one of five states: connecting (the page is
 * reading the table or opening the socket), live, not connected and trying again in a few seconds
 * (the socket dropped or could not open), not connected (nothing left to try: the table could not
 * be read), and stopped by the relay for good (a refusal such as a deleted table). It never says
 * "not connected" while a connection is still being made.
 */
import { byId, type ViewPage } from "./dom.js";

/** Where the live connection stands. */
export type LiveState =
  | { kind: "connecting" }
  | { kind: "live" }
  | { kind: "retrying"; inMs: number }
  | { kind: "down" }
  | { kind: "refused"; why: string };

/** Shows `state` in the page's live line. */
export function showLive(doc: ViewPage, state: LiveState): void {
  const line = byId(doc, "live");
  const [text, className] = words(state);
  line.hidden = false;
  line.textContent = text;
  line.className = className;
}

function words(state: LiveState): [string, string] {
  switch (state.kind) {
    case "connecting":
      return ["connecting…", "live connecting"];
    case "live":
      return ["live: new entries appear as they are written", "live on"];
    case "retrying":
      return [`not connected; trying again in ${Math.round(state.inMs / 1000)} s`, "live off"];
    case "down":
      return ["not connected", "live off"];
    case "refused":
      return [`stopped by the relay: ${state.why}`, "live off refused"];
  }
}
