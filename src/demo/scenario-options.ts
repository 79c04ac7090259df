/** What every demo scenario is handed (scenarios.ts): the relay it plays on and where it writes. */
import type { DemoChats } from "./market-groups.js";
import type { DemoRelay } from "./relay.js";
import type { Transcript } from "./transcript.js";

/** Where a scenario runs and writes. */
export interface ScenarioOptions {
  relay: DemoRelay;
  /** The repository (for bin/trestle.mjs). */
  root: string;
  /** A fresh directory for the scenario's homes (keys, mandates, journals) and files. */
  work: string;
  /** Where the exports go. */
  outDir: string;
  transcript: Transcript;
  /** The chat apps' stand-in the relay reaches and the platforms' webhooks to it, when the relay was started with them (the market's groups); else null. */
  chats?: DemoChats | null;
}
