/**
 * What the principal window reads besides its table sessions, as the page's events (docs/VIEW.md):
 * the evidence this home keeps against the relay (client/head-store.ts, docs/SPEC.md §8.3), where a
 * damaged evidence file reads as loudly as evidence, never as none; and the owner's notification
 * channels (§11.4), each in the words of `trestle channels`, or the error that kept them unread.
 */
import type { FileHeadStore, OwnerClient } from "../client/node.js";
import { channelLine } from "../text/format.js";
import { stylesFor } from "../text/styles.js";
import type { EvidenceView, ViewEvent } from "./wire.js";

const PLAIN = stylesFor(false);

/** The evidence `store` keeps against the relay `relayKey`, one item per finding; a damaged file is one item saying so (table `?`). */
export function evidenceViews(store: FileHeadStore, relayKey: string): EvidenceView[] {
  try {
    return store
      .allEvidence()
      .filter((found) => found.relay === relayKey)
      .flatMap((found) =>
        found.items.map(({ recorded_at, evidence: e }) => ({
          table: found.table,
          kind: e.kind,
          seq: e.seq,
          message: e.message,
          recorded_at,
        })),
      );
  } catch (error) {
    // A damaged evidence file is never read as "no evidence" (head-store.ts): say so as loudly.
    const message = error instanceof Error ? error.message : String(error);
    return [
      {
        table: "?",
        kind: "fork",
        seq: 0,
        message: `cannot read the evidence kept in this home: ${message}`,
        recorded_at: null,
      },
    ];
  }
}

/** The owner's channels as the page's `channels` event; a failed read is the event's `error`, never thrown. */
export function channelsEvent(owners: OwnerClient): Promise<ViewEvent> {
  return owners.channels().then(
    (health) => ({
      type: "channels",
      channels: health.channels.map((c) => ({ state: c.state, line: channelLine(c, PLAIN) })),
      error: null,
    }),
    (error: unknown) => ({
      type: "channels",
      channels: [],
      error: error instanceof Error ? error.message : String(error),
    }),
  );
}
