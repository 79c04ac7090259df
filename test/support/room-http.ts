/**
 * Drives a room over the relay's HTTP routes (docs/SPEC.md §5.10) with the stroller cast: the
 * creator's signed invites and ejections, lookups and joins by code from a given client address,
 * seats' room kinds and notes to their owners. Any fetch (SELF.fetch in workerd, or a real server).
 */
import {
  signEject,
  signInvite,
  signJoin,
  signNote,
  type DistributiveOmit,
  type Signer,
  type SubmissionInput,
  type TableConfig,
} from "../../src/protocol/index.js";
import { RelayHttp, type Reply } from "./relay-http.js";
import { roomCast, roomConfig, type RoomCast } from "./room-fixture.js";
import { keyOf, nonceOf } from "./table-fixture.js";

let unique = 0;

/** A fresh label for nonces and invite ids. */
export function fresh(label: string): string {
  unique += 1;
  return nonceOf(`${label}:${unique}:${Math.random()}`);
}

/** A room on a relay: `id` is the room's table id. */
export class RoomHttp {
  private constructor(
    readonly relay: RelayHttp,
    readonly id: string,
    readonly k: RoomCast,
  ) {}

  /** Creates the stroller room as `id` (sara creating it; `notRoom`: the same open table without `room`; `cast`: the label of the cast's keys, see roomCast) and seats sara-bot. */
  static async open(
    relay: RelayHttp,
    id: string,
    options: { overrides?: Partial<TableConfig>; notRoom?: boolean; cast?: string } = {},
  ): Promise<RoomHttp> {
    const k = await roomCast(options.cast);
    const room = new RoomHttp(relay, id, k);
    const { room: _room, ...plain } = roomConfig(k, { id, ...options.overrides });
    expect201(await relay.create(k.sara, "sara", options.notRoom ? plain : { ...plain, room: _room }));
    expect201(await relay.join(id, k.sara, "sara", "sara-bot", await room.seatKey("sara-bot")));
    return room;
  }

  seatKey(seat: string): Promise<Signer> {
    return keyOf(`seat:${seat}`);
  }

  /** POST /tables/:id/invites signed by `by` (default sara). */
  async invite(fields: { invite?: string; expires?: number; replaces?: string; by?: Signer } = {}): Promise<Reply> {
    const request = await signInvite(fields.by ?? this.k.sara, {
      table: this.id,
      invite: fields.invite ?? fresh("invite"),
      expires: fields.expires ?? Date.now() + 3_600_000,
      ...(fields.replaces ? { replaces: fields.replaces } : {}),
    });
    return this.relay.request("POST", `/tables/${this.id}/invites`, request);
  }

  /** POST /invites/lookup from client address `ip`. */
  lookup(code: string, ip = "198.51.100.1"): Promise<Reply> {
    return this.relay.request("POST", "/invites/lookup", { code }, { "cf-connecting-ip": ip });
  }

  /** The signed join by invite of `owner` into `seat`, naming `invite` (the body without the code). */
  async invitedJoin(owner: Signer, ownerName: string, seat: string, invite: string, table = this.id) {
    return signJoin(
      owner,
      {
        table,
        seat,
        owner: ownerName,
        seat_key: (await this.seatKey(seat)).publicKeyText,
        human: false,
        nonce: fresh(`join:${seat}`),
        expires: Date.now() + 60_000,
        invite,
        owner_key: owner.publicKeyText,
      },
      { summary: `${seat} in the room` },
    );
  }

  /** POST /invites/join with `code` from client address `ip`. */
  async joinWith(
    code: string,
    owner: Signer,
    ownerName: string,
    seat: string,
    invite: string,
    ip = "198.51.100.1",
  ): Promise<Reply> {
    return this.relay.request(
      "POST",
      "/invites/join",
      { code, ...(await this.invitedJoin(owner, ownerName, seat, invite)) },
      { "cf-connecting-ip": ip },
    );
  }

  /** Sara invites `ownerName`, who joins `seat` with the code; returns the join reply. */
  async admit(owner: Signer, ownerName: string, seat: string): Promise<Reply> {
    const issued = await this.invite();
    expect201(issued);
    return this.joinWith(issued.body.code, owner, ownerName, seat, issued.body.invite);
  }

  /** POST /tables/:id/eject signed by `by` (default sara). */
  async eject(seat: string, by: Signer = this.k.sara): Promise<Reply> {
    return this.relay.request(
      "POST",
      `/tables/${this.id}/eject`,
      await signEject(by, { table: this.id, seat, nonce: fresh("eject") }),
    );
  }

  /** A room kind (or any submission) written by `seat`. */
  async write(seat: string, input: DistributiveOmit<SubmissionInput, "table" | "nonce" | "seat">): Promise<Reply> {
    return this.relay.say(this.id, await this.seatKey(seat), { seat, ...input } as Parameters<RelayHttp["say"]>[2]);
  }

  /** POST /tables/:id/notes: `seat` tells its owner `text`. */
  async note(seat: string, text: string, opts: { ts?: number; nonce?: string; signer?: Signer } = {}): Promise<Reply> {
    const request = await signNote(opts.signer ?? (await this.seatKey(seat)), {
      table: this.id,
      seat,
      text,
      nonce: opts.nonce ?? fresh("note"),
      ts: opts.ts ?? Date.now(),
    });
    return this.relay.request("POST", `/tables/${this.id}/notes`, request);
  }
}

/** Fails unless `reply` is a 201 (with its body in the message). */
export function expect201(reply: Reply): Reply {
  if (reply.status !== 201) throw new Error(`expected 201, got ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply;
}
