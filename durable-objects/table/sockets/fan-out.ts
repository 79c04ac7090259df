/**
 * The one fan-out of a table's entries to every kind of socket that follows it: seat sockets (each
 * seat's view, §5.3), owner sessions and public viewers (everything). A socket's attachment keeps
 * the last seq it was sent, so a push or a catch-up after a wake neither skips nor repeats an
 * entry. A push sends each socket that was sent everything before the batch its class's frame as
 * built once (frames.ts); any other socket, and a seat that left, is brought up to the push's head
 * from SQLite, page by page, in frames of bounded size. A seat that left reads nothing after its
 * seat_left (§6.2): its socket gets entries up to that one, then closes (E_UNKNOWN_SEAT).
 */
import { wsCloseCodeOf } from "../../../src/protocol/errors.js";
import { LIMITS } from "../../../src/protocol/limits/limits.js";
import type { TableState } from "../../../src/protocol/policy/state.js";
import { own } from "../../../src/protocol/encoding/records.js";
import type { Principal } from "../../../src/protocol/schemas/auth.js";
import type { Entry } from "../../../src/protocol/schemas/entry.js";
import type { HiddenEntry } from "../../../src/protocol/schemas/export.js";
import type { SignedHead } from "../../../src/protocol/schemas/head.js";
import type { ServerFrame } from "../../../src/protocol/schemas/ws.js";
import { viewOf } from "../../../src/protocol/reading/visibility.js";
import type { TableContext } from "../context.js";
import { attach, attachmentOf, type SocketAttachment } from "./attachment.js";
import { FRAME_BUDGET_CHARS, type Frames } from "./frames.js";

/** A socket that follows the table: whom it reads as (null: a public viewer, reading everything), its cursor, and its seat's seat_left seq. */
interface Follower {
  attachment: SocketAttachment;
  reader: Principal | null;
  left: number | null;
}

/** The follower behind `ws`, or null for a socket that does not follow the table (not authenticated yet). */
function followerOf(ws: WebSocket, state: TableState | null): Follower | null {
  const attachment = attachmentOf(ws);
  if (!attachment) return null;
  if ("public" in attachment) return { attachment, reader: null, left: null };
  if (attachment.seat)
    return {
      attachment,
      reader: { seat: attachment.seat },
      left: (state && own(state.seats, attachment.seat)?.left) ?? null,
    };
  if (attachment.owner) return { attachment, reader: { owner: attachment.owner }, left: null };
  return null;
}

/** Sends the batch of `frames` to every socket in `sockets` that follows the table (see the file comment). */
export function push(sockets: readonly WebSocket[], frames: Frames, table: TableContext): void {
  for (const ws of sockets) {
    try {
      const follower = followerOf(ws, table.state);
      if (!follower || follower.attachment.cursor >= frames.last) continue;
      const text =
        follower.attachment.cursor === frames.before && follower.left === null ? frames.for(follower.reader) : null;
      if (text === null) {
        sendUpTo(ws, frames.head, table);
        continue;
      }
      ws.send(text);
      attach(ws, { ...follower.attachment, cursor: frames.last });
    } catch {
      // A socket closing mid-send is dropped; its client resumes from its own cursor.
    }
  }
}

/** Brings a socket that starts following at `head` up to the newest head; entries appended meanwhile are covered by the next round. */
export async function catchUp(ws: WebSocket, head: SignedHead, table: TableContext): Promise<void> {
  for (;;) {
    sendUpTo(ws, head, table);
    if (head.seq >= (table.state?.seq ?? 0)) return;
    head = await table.currentHead();
  }
}

/** Sends a socket its entries in (cursor, head.seq] as it may read them; synchronous, so two callers never send the same entry twice. */
function sendUpTo(ws: WebSocket, head: SignedHead, table: TableContext): void {
  const state = table.state;
  const follower = followerOf(ws, state);
  if (!follower || !state) return;
  const until = follower.left === null ? head.seq : Math.min(head.seq, follower.left);
  let cursor = follower.attachment.cursor;
  while (cursor < until) {
    const batch = table.entriesAfter(cursor, LIMITS.page).filter((e) => e.seq <= until);
    if (batch.length === 0) break;
    const items = follower.reader === null ? batch : viewOf(state, follower.reader, batch);
    for (const frame of framesOf(items)) send(ws, { type: "entries", items: frame, head });
    cursor = batch[batch.length - 1]!.seq;
  }
  if (cursor !== follower.attachment.cursor) attach(ws, { ...follower.attachment, cursor });
  if (follower.left !== null && cursor >= follower.left)
    ws.close(
      wsCloseCodeOf("E_UNKNOWN_SEAT"),
      `seat ${"seat" in follower.attachment ? (follower.attachment.seat ?? "") : ""} left the table`,
    );
}

/** Splits entries into runs whose JSON stays under the frame budget (an oversized entry goes alone). */
function framesOf<T extends Entry | HiddenEntry>(entries: readonly T[]): T[][] {
  const frames: T[][] = [[]];
  let size = 0;
  for (const entry of entries) {
    const length = JSON.stringify(entry).length;
    if (frames[frames.length - 1]!.length > 0 && size + length > FRAME_BUDGET_CHARS) {
      frames.push([]);
      size = 0;
    }
    frames[frames.length - 1]!.push(entry);
    size += length;
  }
  return frames.filter((f) => f.length > 0);
}

/** Sends one server frame as JSON text. */
export function send(ws: WebSocket, frame: ServerFrame): void {
  ws.send(JSON.stringify(frame));
}
