/**
 * Rooms from the owner's side (docs/ROOMS.md): the room config a creator signs, invites with their
 * links, joining by link or code, and ejecting a seat. An invite link is
 * `<relay URL>/invites#code=XXXX-XXXX&relay_key=<key>`: the creator's client writes the relay key
 * it pinned into the link, and the joiner's client refuses a relay that serves another key before
 * it trusts anything the relay says (then pins it, as on first use). An end-to-end encrypted room's
 * link also carries `room_key=<key>`, which the joiner's client stores in its home (room-key.ts).
 * The fragment never reaches a server: only the code is sent. Joining still needs the joiner's
 * owner signature: the invite only says where.
 */
import { HttpClient, PinStore, pinRelay, randomNonce, TableClient, FileHeadStore, type Clock } from "../client/node.js";
import { systemClock } from "../client/random.js";
import { loadRoomKey, RoomKeyFileSchema, roomKeyForNewRoom, saveRoomKey } from "./room-key.js";
import {
  InviteIdSchema,
  normalizeInviteCode,
  PublicKeySchema,
  signEject,
  signInvite,
  signJoin,
  TrestleError,
  type CapabilityCard,
  type CreateResponse,
  type JoinResponse,
  type Signer,
  type SubmitResponse,
  type TableConfig,
} from "../protocol/index.js";

/** Where an invite points: the relay, the key the creator pinned for it, and the code; for an e2e room also the room key. */
export interface InviteLink {
  relay: string;
  relayKey: string;
  code: string;
  roomKey?: string;
}

/** The link for `code` at the relay `relay` whose key is `relayKey` (with `room_key` for an e2e room), everything after `#`. */
export function inviteLink(link: InviteLink): string {
  const roomKey = link.roomKey === undefined ? "" : `&room_key=${link.roomKey}`;
  return `${link.relay.replace(/\/+$/, "")}/invites#code=${link.code}&relay_key=${link.relayKey}${roomKey}`;
}

/** Parses an invite link; E_SCHEMA naming what is wrong. */
export function parseInviteLink(text: string): InviteLink {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new TrestleError(
      "E_SCHEMA",
      "an invite link looks like https://relay.example/invites#code=XXXX-XXXX&relay_key=…",
    );
  }
  const params = new URLSearchParams(url.hash.slice(1));
  const code = normalizeInviteCode(params.get("code") ?? "");
  const relayKey = params.get("relay_key") ?? "";
  if (!url.pathname.endsWith("/invites") || code === null)
    throw new TrestleError("E_SCHEMA", "the invite link has no valid code (…/invites#code=XXXX-XXXX)");
  if (!PublicKeySchema.safeParse(relayKey).success)
    throw new TrestleError("E_SCHEMA", "the invite link does not carry the relay's key (relay_key)");
  const roomKey = params.get("room_key");
  if (roomKey !== null && !RoomKeyFileSchema.shape.key.safeParse(roomKey).success)
    throw new TrestleError("E_SCHEMA", "the invite link's room_key is not a 32-byte base64url key");
  return {
    relay: url.origin + url.pathname.slice(0, -"/invites".length),
    relayKey,
    code,
    ...(roomKey === null ? {} : { roomKey }),
  };
}

/** A room config: an open table created by `owner`, closing at a decision or after `maxEntries` entries (a `close` ends it any time); end-to-end encrypted with `e2e`. */
export function roomConfigFor(fields: {
  id: string;
  topic: string;
  owner: string;
  ownerKey: string;
  maxEntries?: number;
  maxParties?: number;
  e2e?: boolean;
}): TableConfig {
  return {
    id: fields.id,
    topic: fields.topic,
    owners: { [fields.owner]: { public_key: fields.ownerKey } },
    topology: { kind: "open" },
    termination: { any: ["decision", { max_entries: fields.maxEntries ?? 500 }] },
    room: {
      ...(fields.maxParties === undefined ? {} : { max_parties: fields.maxParties }),
      ...(fields.e2e ? { e2e: true as const } : {}),
    },
  };
}

/** Creates the room `config` signed by its creator; an e2e room's key is made (or reused) in `home` first, so a lost answer never leaves a room without its key. */
export async function createRoom(
  client: TableClient,
  creator: Signer,
  owner: string,
  config: TableConfig,
  home: string,
): Promise<CreateResponse> {
  if (config.room?.e2e) await roomKeyForNewRoom(home, config.id);
  return client.create(creator, owner, config);
}

/** An invite issued: its id, code, expiry and link. */
export interface IssuedInvite {
  invite: string;
  code: string;
  expires: number;
  seq: number;
  link: string;
}

/**
 * Issues an invite to `client`'s room or market, signed by its creator (a rotation of `replaces` if
 * given), valid for `ttlMs`; the link carries the room key `home` holds for it, if any. With
 * `ownerKey` only that owner key may use it, and that owner needs no code: a plain signed join
 * naming the invite (TableClient.join's `newcomer`, docs/SPEC.md §5.15).
 */
export async function issueInvite(
  client: TableClient,
  creator: Signer,
  options: { ttlMs: number; replaces?: string; ownerKey?: string; clock?: Clock; home?: string },
): Promise<IssuedInvite> {
  const clock = options.clock ?? systemClock;
  if (options.replaces !== undefined && !InviteIdSchema.safeParse(options.replaces).success)
    throw new TrestleError("E_SCHEMA", "replaces must be an invite id");
  if (options.ownerKey !== undefined && !PublicKeySchema.safeParse(options.ownerKey).success)
    throw new TrestleError(
      "E_SCHEMA",
      "the owner key an invite is bound to must be a 43-char base64url Ed25519 public key",
    );
  const request = await signInvite(creator, {
    table: client.table,
    invite: randomNonce(),
    expires: clock() + options.ttlMs,
    ...(options.replaces === undefined ? {} : { replaces: options.replaces }),
    ...(options.ownerKey === undefined ? {} : { owner_key: options.ownerKey }),
  });
  const since = client.tracker.held;
  const issued = await client.http.invite(client.table, request);
  await client.tracker.observe(issued.head, since);
  const room = options.home === undefined ? null : await loadRoomKey(options.home, client.table);
  const link = inviteLink({
    relay: client.http.url,
    relayKey: client.tracker.relayKey,
    code: issued.code,
    ...(room ? { roomKey: room.text } : {}),
  });
  return { invite: issued.invite, code: issued.code, expires: issued.expires, seq: issued.seq, link };
}

/** Ejects `seat` from `client`'s room, signed by its creator. */
export async function ejectSeat(client: TableClient, creator: Signer, seat: string): Promise<SubmitResponse> {
  const request = await signEject(creator, { table: client.table, seat, nonce: randomNonce() });
  const since = client.tracker.held;
  const response = await client.http.eject(client.table, request);
  await client.tracker.observe(response.head, since);
  return response;
}

/** How to join a room by invite. */
export interface JoinByInvite {
  /** An invite link, or a bare code for a relay given as `relay`. */
  invite: string;
  relay?: string;
  home: string;
  owner: string;
  ownerSigner: Signer;
  seat: string;
  seatKey: string;
  card: CapabilityCard;
  ttlMs: number;
  clock?: Clock;
  onFirstUse?(url: string, relayKey: string): void;
}

/** Joins the room an invite opens: pins the relay (to the link's key, if a link), looks the code up, and seats `seat` with the owner's own signature. */
export async function joinByInvite(options: JoinByInvite): Promise<{ client: TableClient; joined: JoinResponse }> {
  const clock = options.clock ?? systemClock;
  const link = options.invite.includes("/invites#") ? parseInviteLink(options.invite) : null;
  const code = link?.code ?? normalizeInviteCode(options.invite);
  if (code === null) throw new TrestleError("E_SCHEMA", "give an invite link or a code XXXX-XXXX");
  const relay = link?.relay ?? options.relay;
  if (relay === undefined) throw new TrestleError("E_SCHEMA", "a bare code needs the relay (--relay); a link names it");
  const http = new HttpClient({ url: relay, clock });
  if (link) {
    const served = (await http.wellKnown()).relay_key;
    if (served !== link.relayKey) {
      throw new TrestleError(
        "E_RELAY_KEY",
        `the relay at ${http.url} serves key ${served}, but the invite link names ${link.relayKey}: do not trust it`,
        { served, link: link.relayKey },
      );
    }
  }
  const { relayKey, firstUse, maxEntries } = await pinRelay(http, new PinStore(options.home), clock);
  if (firstUse) options.onFirstUse?.(http.url, relayKey);
  const target = await http.lookupInvite(code);
  // Kept before the join, so a joined seat always finds its room key; it never leaves this machine.
  if (link?.roomKey !== undefined) await saveRoomKey(options.home, target.table, link.roomKey);
  const client = await TableClient.open({
    http,
    table: target.table,
    relayKey,
    maxEntries,
    store: new FileHeadStore(options.home),
  });
  const request = await signJoin(
    options.ownerSigner,
    {
      table: target.table,
      seat: options.seat,
      owner: options.owner,
      seat_key: options.seatKey,
      human: false,
      nonce: randomNonce(),
      expires: clock() + options.ttlMs,
      invite: target.invite,
      owner_key: options.ownerSigner.publicKeyText,
    },
    options.card,
  );
  const since = client.tracker.held;
  const joined = await http.joinByInvite({ code, ...request });
  await client.tracker.observe(joined.head, since);
  return { client, joined };
}
