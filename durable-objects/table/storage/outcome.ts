/** What one write produced, as every write returns it and the steps after a write take it (context.ts's afterWrite). */
import type { Entry } from "../../../src/protocol/schemas/entry.js";

/** What a write produced: the primary entry and everything appended with it (empty on a retry). */
export interface WriteOutcome {
  primary: Entry;
  appended: Entry[];
}
