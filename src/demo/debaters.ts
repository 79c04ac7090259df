/**
 * The scripted seats of the #459/#461 debate: deterministic handlers for runSeat, no model calls.
 * bot-tao argues for #459, bot-jenny for #461 with a private note from her owner that shapes what
 * it says but is never said; the judge decides from the only entries its visibility rule lets it
 * read (the two sides' `say`s), with an effect on jenny's taskboard.
 */
import type { SeatHandler } from "../client/index.js";
import type { Effect, ProjectedEntry } from "../protocol/index.js";
import { DemoError } from "./errors.js";

/** What jenny told her bot and no one else; it must appear in no entry. */
export const PRIVATE_NOTE = "jenny is on leave next week";

/** The judge's decision's effect: jenny's taskboard gets #461 first, then #459. */
export const REORDER: Effect = {
  owner: "jenny",
  resource: "taskboard",
  action: "reorder",
  args: { first: "#461", then: "#459" },
};

const TAO_LINES = [
  "Ship #459 first: the CSV export is what Friday's customer demo needs, and it is done.",
  "#461 can follow on Monday; the data loss only hits imports over 10 MB, which are rare.",
];

/** bot-tao (pro): its lines in order, one per turn. */
export function taoSeat(): SeatHandler {
  let turn = 0;
  return () => ({ kind: "say", body: TAO_LINES[Math.min(turn++, TAO_LINES.length - 1)]! });
}

/** bot-jenny (con): argues from its owner's private notes without ever writing them. */
export function jennySeat(privateNotes: readonly string[]): SeatHandler {
  let turn = 0;
  const pressed = privateNotes.some((note) => note.includes("next week")); // the reviewer will not be around later
  return () => {
    const body =
      turn++ === 0
        ? "Ship #461 first: it fixes silent data loss, and a demo on top of corrupted imports is worse than no export."
        : pressed
          ? "Rare is not never: two customers hit it last month. #461 is reviewed and ready now, and it should land this week, not after."
          : "Rare is not never: two customers hit it last month. #461 is reviewed and ready now.";
    for (const note of privateNotes)
      if (body.toLowerCase().includes(note.toLowerCase()))
        throw new DemoError("bot-jenny was about to disclose a private note");
    return { kind: "say", body };
  };
}

/** What the judge read before deciding. */
export interface JudgeView {
  read: Pick<ProjectedEntry, "seq" | "seat" | "kind">[];
  /** Entries its visibility rule kept from it. */
  hidden: number;
}

/** The judge: decides #461 first when the con side's data-loss argument stands (else passes); reports what it read. */
export function judgeSeat(onRead: (view: JudgeView) => void): SeatHandler {
  return ({ projection }) => {
    const says = projection.tail.filter((e) => e.kind === "say");
    onRead({
      read: projection.tail.map(({ seq, seat, kind }) => ({ seq, kind, ...(seat ? { seat } : {}) })),
      hidden: projection.cursor - projection.tail.length,
    });
    const dataLoss = says.some((e) => e.seat === "bot-jenny" && e.body?.includes("data loss"));
    if (!dataLoss) return { kind: "pass", body: "no argument stands out; no decision" };
    return {
      kind: "decision",
      body: "Ship #461 first, then #459: silent data loss outranks a demo feature, and both sides agree the bug is real.",
      effects: [REORDER],
    };
  };
}
