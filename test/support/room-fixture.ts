/**
 * Rooms for protocol tests (docs/SPEC.md §5.10): the stroller room (sara sells, created by her;
 * ben buys, admitted by invite), driven through MemoryLedger with the real admit and chain code,
 * and helpers that sign invites, joins by invite, ejections and room kinds as clients would.
 */
import {
  ejectDraft,
  exportText,
  inviteDraft,
  joinDraft,
  signEject,
  signInvite,
  signJoin,
  type DistributiveOmit,
  type Entry,
  type Signer,
  type SubmissionInput,
  type TableConfig,
  type TableState,
  type Terms,
} from "../../src/protocol/index.js";
import { castKey, keyOf, MemoryLedger, nonceOf } from "./table-fixture.js";

/** The keys of the stroller room's cast: owners sara, ben and cleo, and the relay; with a `label`, the same cast with keys of its own (for files that count per owner key on a relay other files share). */
export async function roomCast(label?: string) {
  const k = (name: string) => castKey(name, label);
  return {
    relay: await k("relay"),
    sara: await k("owner:sara"),
    ben: await k("owner:ben"),
    cleo: await k("owner:cleo"),
  };
}
export type RoomCast = Awaited<ReturnType<typeof roomCast>>;

/** The stroller room: created by sara, the only owner the config lists; everyone else comes by invite. */
export function roomConfig(k: RoomCast, overrides: Partial<TableConfig> = {}): TableConfig {
  return {
    id: "r-stroller",
    topic: "A second-hand stroller",
    owners: { sara: { public_key: k.sara.publicKeyText } },
    topology: { kind: "open" },
    termination: { any: ["decision", { max_entries: 200 }] },
    room: {},
    ...overrides,
  };
}

/** Priced terms in TWD minor units (3,600.00 TWD is 360000). */
export function twd(amount: number, text?: string): Terms {
  return text === undefined ? { amount, currency: "TWD" } : { amount, currency: "TWD", text };
}

/** A room driven through MemoryLedger by seat and owner name. */
export class RoomLedger {
  readonly l: MemoryLedger;
  private invites = 0;

  private constructor(readonly k: RoomCast) {
    this.l = new MemoryLedger(k.relay);
  }

  /** Opens `config` (default the stroller room) as sara and seats sara-bot; with `ben`, also invites ben and seats ben-bot. */
  static async open(options: { config?: Partial<TableConfig>; ben?: boolean } = {}, k?: RoomCast): Promise<RoomLedger> {
    const r = new RoomLedger(k ?? (await roomCast()));
    await r.l.create(r.k.sara, "sara", roomConfig(r.k, options.config));
    await r.l.join(r.k.sara, "sara", "sara-bot", await r.seatKey("sara-bot"));
    if (options.ben ?? true) await r.admit("ben", "ben-bot");
    return r;
  }

  /** The deterministic key of seat `seat`. */
  seatKey(seat: string): Promise<Signer> {
    return keyOf(`seat:${seat}`);
  }

  /** The owner key of sara, ben or cleo. */
  ownerKey(owner: "sara" | "ben" | "cleo"): Signer {
    return this.k[owner];
  }

  /** A fresh invite id for this ledger. */
  nextInvite(): string {
    this.invites += 1;
    return nonceOf(`invite:${this.invites}`);
  }

  /** Issues an invite signed by `signer` (default the creator, sara); returns the appended entries. */
  async invite(fields: { invite?: string; expires?: number; replaces?: string; by?: Signer } = {}): Promise<Entry[]> {
    const invite = fields.invite ?? this.nextInvite();
    const statement = {
      table: this.state.table,
      invite,
      expires: fields.expires ?? this.l.now + 3_600_000,
      ...(fields.replaces ? { replaces: fields.replaces } : {}),
    };
    const request = await signInvite(fields.by ?? this.k.sara, statement);
    return this.l.append(inviteDraft(this.state, request));
  }

  /** The id of the newest invite issued. */
  get lastInvite(): string {
    const issued = this.l.entries.filter((e) => e.kind === "system" && e.subkind === "invite_issued");
    const last = issued[issued.length - 1];
    if (!last || last.kind !== "system" || last.subkind !== "invite_issued") throw new Error("no invite issued");
    return last.data.invite;
  }

  /** The draft of `owner`'s join by invite into `seat` (signed by `signer`, default its own key, naming `ownerKey`), as the relay builds it; not admitted. */
  async inviteJoinDraft(
    owner: "ben" | "cleo",
    seat: string,
    invite: string,
    opts: { signer?: Signer; ownerKey?: string; name?: string; seatKey?: Signer } = {},
  ) {
    const key = this.ownerKey(owner);
    const request = await signJoin(
      opts.signer ?? key,
      {
        table: this.state.table,
        seat,
        owner: opts.name ?? owner,
        seat_key: (opts.seatKey ?? (await this.seatKey(seat))).publicKeyText,
        human: false,
        nonce: nonceOf(`join:${seat}:${invite}`),
        expires: this.l.now + 60_000,
        invite,
        owner_key: opts.ownerKey ?? key.publicKeyText,
      },
      { summary: `${seat} in the room` },
    );
    return joinDraft(this.state, request);
  }

  /** `owner` (a new party) joins `seat` with invite `invite` (see inviteJoinDraft). */
  async joinByInvite(
    owner: "ben" | "cleo",
    seat: string,
    invite: string,
    opts: { signer?: Signer; ownerKey?: string; name?: string; seatKey?: Signer } = {},
  ): Promise<Entry[]> {
    return this.l.append(await this.inviteJoinDraft(owner, seat, invite, opts));
  }

  /** Sara invites `owner`, who joins with `seat`. */
  async admit(owner: "ben" | "cleo", seat: string): Promise<Entry[]> {
    await this.invite();
    return this.joinByInvite(owner, seat, this.lastInvite);
  }

  /** The creator (or `by`) ejects `seat`. */
  async eject(seat: string, by: Signer = this.k.sara): Promise<Entry[]> {
    const request = await signEject(by, {
      table: this.state.table,
      seat,
      nonce: nonceOf(`eject:${seat}:${this.l.entries.length}`),
    });
    return this.l.append(ejectDraft(this.state, request));
  }

  /** Submits as `seat`, signed with its own key. */
  async write(
    seat: string,
    input: DistributiveOmit<SubmissionInput, "table" | "nonce" | "seat"> & { nonce?: string },
  ): Promise<Entry[]> {
    return this.l.submit(await this.seatKey(seat), { seat, ...input } as Omit<SubmissionInput, "table" | "nonce">);
  }

  /** `seat` offers `terms`; returns the offer's leaf hash. */
  async offer(seat: string, terms: Terms, extra: { expires?: number; body?: string } = {}): Promise<string> {
    const [entry] = await this.write(seat, { kind: "offer", terms, ...extra });
    return entry!.leaf;
  }

  /** `seat` counters the offer `offer` with `terms`; returns the counter's leaf hash. */
  async counter(seat: string, offer: string, terms: Terms): Promise<string> {
    const [entry] = await this.write(seat, { kind: "counter", offer, terms });
    return entry!.leaf;
  }

  /** The export of the whole ledger with a head over it. */
  async exportText(): Promise<string> {
    return exportText({ table: this.state.table, relay: this.k.relay.publicKeyText }, this.l.entries, [
      await this.l.head(),
    ]);
  }

  get state(): TableState {
    return this.l.state!;
  }
}

/** A real room ledger's export: sara asks 3,600, ben counters `counterAmount` (default 2,500), sara 2,800, ben accepts with `body`, and sara closes with the deal. */
export async function strollerExport(body = "Deal at 2,800.", counterAmount = 250000): Promise<string> {
  const r = await RoomLedger.open();
  const ask = await r.offer("sara-bot", twd(360000, "stroller"));
  const counter = await r.counter("ben-bot", ask, twd(counterAmount));
  const final = await r.counter("sara-bot", counter, twd(280000));
  await r.write("ben-bot", { kind: "accept", offer: final, body });
  await r.write("sara-bot", { kind: "close", outcome: "deal", offer: final });
  return r.exportText();
}
