/**
 * The stroller room on a real relay, through the client library and the owner side as owners use
 * them: sara (seller) creates the room in her own trestle home and invites ben (buyer), who joins
 * from his own home by the invite link; each side gets a GuardedSeat. `fetch` lets a test put a
 * misbehaving relay between ben and the real one.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileHeadStore, HttpClient, openTable, TableClient, type FetchLike } from "../../src/client/node.js";
import {
  createRoom,
  GuardedSeat,
  issueInvite,
  joinByInvite,
  roomConfigFor,
  setMandate,
  seatFiles,
  type MandateFields,
} from "../../src/owner/index.js";
import { TrestleError, type Signer, type Terms } from "../../src/protocol/index.js";
import { expect } from "vitest";
import { roomCast, type RoomCast } from "./room-fixture.js";
import { refusal } from "./refused.js";
import { keyOf } from "./table-fixture.js";
import { uniqueTable } from "./client-table.js";

/** One side of the room: its trestle home, its client and its guarded seat. */
export interface Side {
  home: string;
  owner: string;
  ownerKey: Signer;
  seat: string;
  client: TableClient;
  guard: GuardedSeat;
}

/** A fresh trestle home. */
export function tempHome(label: string): string {
  return mkdtempSync(join(tmpdir(), `trestle-${label}-`));
}

/**
 * Opens the stroller room at `url`: sara creates and seats sara-bot, ben joins ben-bot by the link
 * (or by its code alone with `byCode`); ben's requests go through `fetch` if given. With `e2e` the
 * room is end-to-end encrypted, its key made in sara's home and carried to ben's by the link.
 */
export async function strollerRoom(
  url: string,
  options: { fetch?: FetchLike; e2e?: boolean; byCode?: boolean } = {},
): Promise<{ k: RoomCast; id: string; sara: Side; ben: Side }> {
  const k = await roomCast();
  const id = uniqueTable("r-stroller");
  const saraHome = tempHome("sara");
  const saraClient = await openTable({ relay: url, table: id, home: saraHome });
  await createRoom(
    saraClient,
    k.sara,
    "sara",
    roomConfigFor({
      id,
      topic: "A second-hand stroller",
      owner: "sara",
      ownerKey: k.sara.publicKeyText,
      e2e: options.e2e === true,
    }),
    saraHome,
  );
  const saraBot = await keyOf("seat:sara-bot");
  await saraClient.join(k.sara, {
    seat: "sara-bot",
    owner: "sara",
    seatKey: saraBot.publicKeyText,
    card: { summary: "sells the stroller" },
    expires: Date.now() + 60_000,
  });
  const invite = await issueInvite(saraClient, k.sara, { ttlMs: 3_600_000, home: saraHome });
  const benHome = tempHome("ben");
  const benBot = await keyOf("seat:ben-bot");
  const { client: joined } = await joinByInvite({
    invite: options.byCode ? invite.code : invite.link,
    relay: url,
    home: benHome,
    owner: "ben",
    ownerSigner: k.ben,
    seat: "ben-bot",
    seatKey: benBot.publicKeyText,
    card: { summary: "buys a stroller" },
    ttlMs: 60_000,
  });
  const benClient = options.fetch
    ? await TableClient.open({
        http: new HttpClient({ url, fetch: options.fetch }),
        table: id,
        relayKey: joined.tracker.relayKey,
        store: new FileHeadStore(benHome),
      })
    : joined;
  const side = (
    home: string,
    owner: string,
    ownerKey: Signer,
    seat: string,
    client: TableClient,
    signer: Signer,
  ): Side => ({
    home,
    owner,
    ownerKey,
    seat,
    client,
    guard: new GuardedSeat({ client, seat, signer, home }),
  });
  return {
    k,
    id,
    sara: side(saraHome, "sara", k.sara, "sara-bot", saraClient, saraBot),
    ben: side(benHome, "ben", k.ben, "ben-bot", benClient, benBot),
  };
}

/** Signs and writes `side`'s mandate with its owner key (money in TWD minor units by default). */
export async function mandate(
  side: Side,
  over: Partial<MandateFields> = {},
  options: { clearLoosened?: boolean } = {},
): Promise<void> {
  const fields: MandateFields = {
    table: side.client.table,
    seat: side.seat,
    owner: side.owner,
    money: { currency: "TWD", cap: 300000 },
    never_disclose: [],
    require_confirm: [],
    paused: false,
    ...over,
  };
  await setMandate(seatFiles(side.home, side.client.table, side.seat).mandate, side.ownerKey, fields, {
    now: Date.now(),
    ...options,
  });
}

/** Sends an offer of `terms` as `side` and returns its entry's leaf hash, read back from the verified transcript. */
export async function offerFrom(side: Side, terms: Terms): Promise<string> {
  const sent = await side.guard.send({ kind: "offer", terms });
  return leafAt(side, sent.seq);
}

/** The leaf hash of entry `seq`, from `side`'s verified transcript. */
export async function leafAt(side: Side, seq: number): Promise<string> {
  const entry = (await side.guard.transcript()).entries.find((e) => e.seq === seq);
  if (!entry) throw new Error(`no entry ${seq}`);
  return entry.leaf;
}

/** The refusal `attempt` throws; fails the test if the relay's head moved meanwhile or nothing (or not a TrestleError) was thrown. */
export async function refusedAt(side: Side, attempt: () => Promise<unknown>): Promise<TrestleError> {
  const before = await side.client.head();
  const error = await refusal(attempt);
  expect((await side.client.head()).seq).toBe(before.seq);
  return error;
}
