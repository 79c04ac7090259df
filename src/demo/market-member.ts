/**
 * One member's machine in the market scenario: its own trestle home (keys, pins, heads, mandates,
 * journals), its owner key, its market seat's key, and its client of the market, through which its
 * seat writes listings past its guards. Nothing here is shared between members but the relay.
 */
import { join } from "node:path";
import {
  createKeyFile,
  openTable,
  ownerKeyPath,
  seatKeyPath,
  type LoadedKey,
  type Reader,
  type TableClient,
} from "../client/node.js";
import { GuardedSeat } from "../owner/index.js";
import { DemoError } from "./errors.js";
import type { Member } from "./market-cast.js";
import type { DemoRelay } from "./relay.js";

/** A member's machine. */
export interface MemberMachine {
  name: Member;
  home: string;
  owner: LoadedKey;
  /** Its market seat (`<name>-bot`), which writes its listings and takes its place in its match rooms. */
  seat: string;
  seatKey: LoadedKey;
  /** Reads as this owner (every entry of a market it belongs to). */
  reader: Reader;
}

/** A member's keys, made in its own home under `work`. */
export async function memberMachine(work: string, name: Member): Promise<MemberMachine> {
  const home = join(work, name);
  const seat = `${name}-bot`;
  const owner = await createKeyFile(ownerKeyPath(home, name), "owner", name);
  const seatKey = await createKeyFile(seatKeyPath(home, seat), "seat", seat);
  return { name, home, owner, seat, seatKey, reader: { signer: owner.signer, as: { owner: name } } };
}

/** The member's client of `table` on `relay`, pinned in its home; E_RELAY_KEY-like failure as a DemoError when the relay's key is not the one the demo found. */
export async function tableAt(m: MemberMachine, relay: DemoRelay, table: string): Promise<TableClient> {
  const client = await openTable({ relay: relay.url, table, home: m.home });
  if (client.tracker.relayKey !== relay.relayKey)
    throw new DemoError(`the relay's key changed during the demo (pinned ${client.tracker.relayKey})`);
  return client;
}

/** The member's market seat writing through its guards. */
export function marketSeat(m: MemberMachine, market: TableClient): GuardedSeat {
  return new GuardedSeat({ client: market, seat: m.seat, signer: m.seatKey.signer, home: m.home });
}
