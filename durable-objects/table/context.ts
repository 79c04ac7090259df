/**
 * What every role module (sockets/, reading/, writing/, market/, object/) sees of one table's object: its
 * lower parts (the object's storage and env, the folded state, the ledger, the tombstone, the
 * limits, the owner notifications, the replica) and the steps the object composes from role
 * modules (what follows a write, the alarm's schedule, forgetting a deleted table), declared here
 * and wired in object/composed-context.ts. This file imports only types, and only from the layers
 * below it (storage/, limits.ts, approvers.ts; docs/ARCHITECTURE.md), so a role module that takes the
 * context imports only downward.
 */
import type { TableState } from "../../src/protocol/policy/state.js";
import type { Signer } from "../../src/protocol/signing/crypto.js";
import type { Entry, HeadRef } from "../../src/protocol/schemas/entry.js";
import type { SignedHead } from "../../src/protocol/schemas/head.js";
import type { Ledger } from "./storage/ledger.js";
import type { Burial } from "./storage/tombstone.js";
import type { TableLimits } from "./limits.js";
import type { Notices } from "./storage/notices.js";
import type { ChannelProbe } from "./approvers.js";
import type { WriteOutcome } from "./storage/outcome.js";
import type { Replica } from "./storage/replica.js";
import type { Principal } from "../../src/protocol/schemas/auth.js";

/** A read request as the Worker saw it: the Authorization header and the signed path. */
export interface ReadAuth {
  header: string | null;
  path: string;
}

/** One table's object as its role modules use it; the object holds exactly one (object/composed-context.ts). */
export interface TableContext {
  /** The folded state, rebuilt from SQLite on every wake identically; null before the table exists and once it is deleted. */
  state: TableState | null;
  readonly ledger: Ledger;
  /** Set once the table is deleted (storage/tombstone.ts): every request then reads it as E_TABLE_DELETED. */
  readonly burial: Burial | null;
  /** The Durable Object's own state: storage, sockets, waitUntil. */
  readonly ctx: DurableObjectState;
  readonly storage: DurableObjectStorage;
  readonly env: Env;
  /** Rates and socket caps this table counts itself (limits.ts). */
  readonly limits: TableLimits;
  /** Owner notifications recorded with their entries and not yet handed over (storage/notices.ts). */
  readonly notices: Notices;
  /** Whether an owner has a proven notification channel, for E_NO_APPROVER. */
  readonly channels: ChannelProbe;
  /** Whether the table is a read-only mirror here, and the heads and evidence it keeps (storage/replica.ts). */
  readonly replica: Replica;
  /** The ledger limit this relay publishes (LIMITS.entries); a replica's pages are judged with it. */
  readonly maxEntries: number;

  /** The clock every write and deadline of this table reads (tests move it). */
  now(): number;
  /** This relay's signing key (its heads, results and custody signatures). */
  signer(): Promise<Signer>;
  /** Every socket of the table: seat, owner and public. */
  sockets(): WebSocket[];
  /** Entries after `cursor` up to the newest, at most `limit`. */
  entriesAfter(cursor: number, limit: number): Entry[];
  /** Owners who can answer an approval now: live owner sessions and connected human seats. */
  answerers(): ReadonlySet<string>;
  /** The signed head of the ledger as it is now (a mirror's: the head of the relay holding the table). */
  currentHead(): Promise<SignedHead>;
  /** A head at or after every entry appended so far, for a push (one signature shared by the writes meanwhile). */
  pushHead(): Promise<SignedHead>;
  /** This relay's signed head at exactly `point` of the ledger (E_MIRROR on a mirror, which signs nothing). */
  headAt(point: HeadRef): Promise<SignedHead>;
  /** The live state; E_TABLE_DELETED for a deleted table, E_TABLE_NOT_FOUND before it exists. */
  requireState(): TableState;
  /** The principal a signed read is made as (E_AUTH unless it verifies), counted against its read rate. */
  reader(auth: ReadAuth): Promise<Principal>;
  /** E_MIRROR while the table is a read-only mirror here: every write is refused. */
  refuseMirror(): void;
  /** After a write: a head at or after its entries, the notifications handed over, the push queued, the alarm moved. */
  afterWrite(outcome: WriteOutcome): Promise<SignedHead>;
  /** Arms the alarm at the earliest deadline of every job the table has. */
  reschedule(): Promise<void>;
  /** Forgets everything the object holds in memory, keeping `burial` (the table was deleted). */
  forget(burial: Burial): void;
}
