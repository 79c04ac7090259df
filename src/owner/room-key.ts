/**
 * An end-to-end encrypted room's key on the owner's machine (docs/ROOMS.md "End-to-end encrypted
 * rooms"): one file per room, `<home>/room-keys/<table>.json` (mode 0600 in a 0700 directory),
 * written when the owner creates the room or joins it by a link that carries the key in its
 * fragment. The key never goes to a relay: links are parsed here and only the code is sent. A file
 * that others may read, that does not parse, or that is for another table is E_KEY_FILE; a second
 * key for a room that already has one is refused, never written over.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { readPrivateJson } from "../client/private-file.js";
import { writeAtomically } from "../client/files.js";
import { parseOrThrow, TableIdSchema, TrestleError, type Projection } from "../protocol/index.js";
import { hasMandateFile } from "./paths.js";
import { newRoomKeyText, openProjected, openText, roomKeyOf, UNREADABLE, type RoomKey } from "./sealing.js";
import type { RoomSummary } from "./room-view.js";

/** A room key file's content. */
export const RoomKeyFileSchema = z.strictObject({
  type: z.literal("trestle-room-key"),
  version: z.literal(1),
  table: TableIdSchema,
  key: z.string().regex(/^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/, "32-byte base64url room key"),
});
export type RoomKeyFile = z.infer<typeof RoomKeyFileSchema>;

/** Where `table`'s room key lives under trestle home `home`. */
export function roomKeyPath(home: string, table: string): string {
  return join(home, "room-keys", `${parseOrThrow(TableIdSchema, table, "table")}.json`);
}

/** Whether this home holds a key for `table` (then its writes there are sealed). */
export function hasRoomKey(home: string, table: string): boolean {
  return existsSync(roomKeyPath(home, table));
}

/** Whether `seat`'s writes at `table` from this home go through the owner-side guards: it has a mandate, or the home holds the room's key (to seal them). */
export function writesGuarded(home: string, table: string, seat: string): boolean {
  return hasMandateFile(home, table, seat) || hasRoomKey(home, table);
}

/** The room key for `table` from this home, or null when it has none; E_KEY_FILE for a file that is unsafe or broken. */
export async function loadRoomKey(home: string, table: string): Promise<RoomKey | null> {
  const path = roomKeyPath(home, table);
  const json = readPrivateJson(path);
  if (json === undefined) return null;
  const parsed = RoomKeyFileSchema.safeParse(json);
  if (!parsed.success || parsed.data.table !== table)
    throw new TrestleError("E_KEY_FILE", `${path} is not the room key file of ${table}`);
  return roomKeyOf(parsed.data.key);
}

/** Stores `key` (base64url) as `table`'s room key; the same key again changes nothing, another key is E_KEY_FILE. */
export async function saveRoomKey(home: string, table: string, key: string): Promise<RoomKey> {
  const room = await roomKeyOf(key);
  const held = await loadRoomKey(home, table);
  if (held) {
    if (held.text !== key)
      throw new TrestleError("E_KEY_FILE", `this home already holds another key for room ${table}; it keeps that one`);
    return held;
  }
  const file: RoomKeyFile = { type: "trestle-room-key", version: 1, table, key };
  writeAtomically(roomKeyPath(home, table), JSON.stringify(file, null, 2) + "\n");
  return room;
}

/** The room key for a room this home creates: the one it already holds, or a new random one, stored before the room exists. */
export async function roomKeyForNewRoom(home: string, table: string): Promise<RoomKey> {
  return (await loadRoomKey(home, table)) ?? saveRoomKey(home, table, newRoomKeyText());
}

/** The room key for `table`, or E_KEY_FILE saying the room is sealed and this home cannot write or read it. */
export async function requireRoomKey(home: string, table: string): Promise<RoomKey> {
  const room = await loadRoomKey(home, table);
  if (!room) {
    throw new TrestleError(
      "E_KEY_FILE",
      `room ${table} is end-to-end encrypted and this machine has no key for it (${roomKeyPath(home, table)}); join with the full invite link, which carries it`,
      {
        reason: "no_room_key",
      },
    );
  }
  return room;
}

/** `p` with its tail's sealed bodies and terms opened when this home holds `table`'s room key (a text that does not open reads UNREADABLE); unchanged otherwise. */
export async function openedProjection(home: string, table: string, p: Projection): Promise<Projection> {
  const room = await loadRoomKey(home, table);
  if (!room) return p;
  return { ...p, tail: await Promise.all(p.tail.map((e) => openProjected(room, table, e))) };
}

/** `room` with its live offers' terms text opened when this home holds the room key (a text that does not open reads UNREADABLE); unchanged otherwise. */
export async function openedSummary(home: string, room: RoomSummary): Promise<RoomSummary> {
  const key = room.e2e ? await loadRoomKey(home, room.table) : null;
  if (!key) return room;
  const offers = await Promise.all(
    room.offers.map(async (o) => {
      if (o.terms.text === undefined) return o;
      const text =
        (await openText(key, { table: room.table, seat: o.seat, field: "terms.text" }, o.terms.text)) ?? UNREADABLE;
      return { ...o, terms: { ...o.terms, text } };
    }),
  );
  return { ...room, offers };
}
