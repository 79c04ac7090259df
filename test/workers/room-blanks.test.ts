/**
 * What a client written from docs/SPEC.md §5.10 alone relies on, at the relay: the grant scope
 * pattern, the currencies, a zero amount, amounts past 2^53 − 1 (E_NOT_CANONICAL over HTTP and
 * WebSocket alike), E_TOO_LARGE for every published length, what `max_parties` counts, and that an
 * ejection of an invited party's seat ejects the party (every seat of it), while an owner the config
 * lists loses that seat only. Every refusal leaves the head where it was.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LIMITS, signNote, signSubmission, type Entry } from "../../src/protocol/index.js";
import { headUnmoved, RelayHttp, tableHead, type Reply } from "../support/relay-http.js";
import { refused } from "../support/refused.js";
import { RoomHttp } from "../support/room-http.js";
import { roomCast, twd } from "../support/room-fixture.js";
import { TestSocket } from "../support/socket.js";
import { nonceOf } from "../support/table-fixture.js";

const fetcher = (url: string, init?: RequestInit) => SELF.fetch(url, init);
const relay = new RelayHttp(fetcher);

/** A room `id` with sara-bot and ben-bot (ben admitted by invite). */
async function stroller(id: string, overrides = {}): Promise<RoomHttp> {
  const room = await RoomHttp.open(relay, id, { overrides });
  expect((await room.admit(room.k.ben, "ben", "ben-bot")).status).toBe(201);
  return room;
}

/**
 * POST /tables/:id/entries with `seat`'s signed submission of `input`, then `changed` written over
 * its fields: what a client that skips the library's own checks sends (the signature no longer
 * matters: the schema refuses first).
 */
async function sent(
  room: RoomHttp,
  seat: string,
  input: Record<string, unknown>,
  changed: Record<string, unknown>,
): Promise<Reply> {
  const request = await signSubmission(await room.seatKey(seat), {
    table: room.id,
    seat,
    nonce: nonceOf(`raw:${Math.random()}`),
    body: "",
    ...input,
  } as never);
  return relay.request("POST", `/tables/${room.id}/entries`, {
    ...request,
    submission: { ...request.submission, ...changed },
  });
}

/** The newest entry of the room, read as sara. */
async function last(room: RoomHttp): Promise<Entry> {
  return (await relay.read(room.id, `/tables/${room.id}/entries?from=1`, room.k.sara, { owner: "sara" })).body.items.at(
    -1,
  );
}

describe("grant scopes", () => {
  it("accepts a scope of the documented pattern, 64 chars long", async () => {
    const room = await stroller("blanks-scope");
    for (const scope of ["pickup:address", "repo/acme:read", `a${"b-._:/7".repeat(9)}`]) {
      expect(
        (await room.write("sara-bot", { kind: "grant", grantee: "ben-bot", scope, expires: Date.now() + 60_000 }))
          .status,
      ).toBe(201);
    }
  });

  describe("when a scope does not match it", () => {
    it.each(["Pickup", "-pickup", "pickup address", "s".repeat(65), "", "pickup:é"])(
      "refuses %j with E_SCHEMA",
      async (scope) => {
        const room = await stroller(`blanks-scope-bad-${Math.random().toString(36).slice(2, 8)}`);
        const grant = { kind: "grant", grantee: "ben-bot", scope: "pickup", expires: Date.now() + 60_000 };
        const reply = await refused("E_SCHEMA", () => sent(room, "sara-bot", grant, { scope }), {
          status: 400,
          unmoved: tableHead(relay, room.id),
        });
        expect(reply.body.error.message).toContain("submission.scope");
      },
    );
  });
});

describe("amounts and currencies", () => {
  it("accepts a zero amount, and amounts in currencies of each minor-digit count", async () => {
    const room = await stroller("blanks-amounts");
    for (const terms of [
      twd(0),
      { amount: 280000, currency: "JPY" },
      { amount: 280000, currency: "KWD" },
      { amount: Number.MAX_SAFE_INTEGER, currency: "XDR" },
    ] as const) {
      expect((await room.write("sara-bot", { kind: "offer", terms })).status).toBe(201);
      expect(await last(room)).toMatchObject({ kind: "offer", terms });
    }
    const free = (
      await relay.read(room.id, `/tables/${room.id}/entries?from=1`, room.k.sara, { owner: "sara" })
    ).body.items.find((e: Entry) => e.kind === "offer");
    expect((await room.write("ben-bot", { kind: "accept", offer: free.leaf })).status).toBe(201);
  });

  describe("when an amount or a currency is outside the documented ones", () => {
    it.each([
      ["a negative amount", { amount: -1, currency: "TWD" }],
      ["a withdrawn currency", { amount: 1, currency: "HRK" }],
      ["a lowercase currency", { amount: 1, currency: "twd" }],
      ["a fund code", { amount: 1, currency: "BOV" }],
    ])("refuses %s with E_SCHEMA", async (_, terms) => {
      const room = await stroller(`blanks-terms-${Math.random().toString(36).slice(2, 8)}`);
      await refused("E_SCHEMA", () => sent(room, "sara-bot", { kind: "offer", terms: twd(1) }, { terms }), {
        status: 400,
        unmoved: tableHead(relay, room.id),
      });
    });
  });

  describe("when an amount is past 2^53 - 1", () => {
    /** sara-bot's signed offer of 1 TWD as JSON text, its amount then written as `literal`. */
    async function offerText(room: RoomHttp, literal: string): Promise<string> {
      const request = await signSubmission(await room.seatKey("sara-bot"), {
        table: room.id,
        seat: "sara-bot",
        nonce: nonceOf(`big:${Math.random()}`),
        kind: "offer",
        body: "",
        terms: twd(1),
      });
      const text = JSON.stringify(request);
      expect(text).toContain('"amount":1,');
      return text.replace('"amount":1,', `"amount":${literal},`);
    }

    it("refuses it over HTTP with E_NOT_CANONICAL naming the amount", async () => {
      const room = await stroller("blanks-big-http");
      for (const literal of ["9007199254740992", "9007199254740993", "1e300"]) {
        const reply = await refused(
          "E_NOT_CANONICAL",
          async () => relay.request("POST", `/tables/${room.id}/entries`, await offerText(room, literal)),
          { status: 400, unmoved: tableHead(relay, room.id) },
        );
        expect(reply.body.error.details).toEqual({ path: "$.submission.terms.amount" });
      }
    });

    it("refuses it in a WebSocket frame with E_NOT_CANONICAL, the socket staying open", async () => {
      const room = await stroller("blanks-big-ws");
      const socket = await TestSocket.open(fetcher, room.id);
      await socket.auth(room.id, "sara-bot", await room.seatKey("sara-bot"));
      const text = await offerText(room, "9007199254740993");
      await headUnmoved(relay, room.id, async () => {
        socket.send(`{"type":"submit","id":"big","request":${text}}`);
        expect(await socket.next("error", (f) => f.id === "big")).toMatchObject({
          error: { code: "E_NOT_CANONICAL", details: { path: "$.request.submission.terms.amount" } },
        });
      });
      expect(socket.closed).toBeNull();
      socket.ws.close();
    });
  });
});

describe("published lengths", () => {
  it("refuses terms text and a note to the owner one char past their limits with E_TOO_LARGE, and takes them at the limit", async () => {
    const room = await stroller("blanks-lengths");
    await refused(
      "E_TOO_LARGE",
      () =>
        sent(
          room,
          "sara-bot",
          { kind: "offer", terms: { text: "x" } },
          { terms: { text: "x".repeat(LIMITS.terms_text_chars + 1) } },
        ),
      { status: 413, unmoved: tableHead(relay, room.id) },
    );
    expect(
      (await room.write("sara-bot", { kind: "offer", terms: { text: "x".repeat(LIMITS.terms_text_chars) } })).status,
    ).toBe(201);
    const note = await signNote(await room.seatKey("sara-bot"), {
      table: room.id,
      seat: "sara-bot",
      text: "x",
      nonce: nonceOf(`note:${Math.random()}`),
      ts: Date.now(),
    });
    const long = await relay.request("POST", `/tables/${room.id}/notes`, {
      ...note,
      note: { ...note.note, text: "x".repeat(LIMITS.note_chars + 1) },
    });
    expect(long).toMatchObject({
      status: 413,
      body: { error: { code: "E_TOO_LARGE", details: { issues: [{ path: "note.text" }] } } },
    });
    expect((await room.note("sara-bot", "x".repeat(LIMITS.note_chars))).status).toBe(201);
  });
});

describe("max_parties", () => {
  it("counts the owners invites admit, not the creator, and keeps counting an ejected party", async () => {
    const room = await stroller("blanks-parties", { room: { max_parties: 1 } });
    // One party besides the creator: ben, who may seat a second bot without an invite.
    expect((await relay.join(room.id, room.k.ben, "ben", "ben-2", await room.seatKey("ben-2"))).status).toBe(201);
    const cleo = async () => {
      const invite = await room.invite();
      return refused(
        "E_SEAT_LIMIT",
        () => room.joinWith(invite.body.code, room.k.cleo, "cleo", "cleo-bot", invite.body.invite),
        { status: 409, unmoved: tableHead(relay, room.id) },
      );
    };
    expect((await cleo()).body.error.message).toContain("at most 1 invited owner");
    expect((await room.eject("ben-bot")).status).toBe(201);
    await cleo();
  });
});

describe("ejecting a seat", () => {
  it("ejects an invited party: its other seat leaves in the same batch, its socket closes, it seats no other and still reads as an owner", async () => {
    const room = await stroller("blanks-eject");
    expect((await relay.join(room.id, room.k.ben, "ben", "ben-2", await room.seatKey("ben-2"))).status).toBe(201);
    const socket = await TestSocket.open(fetcher, room.id);
    await socket.auth(room.id, "ben-2", await room.seatKey("ben-2"));
    expect((await room.write("sara-bot", { kind: "offer", terms: twd(300000) })).status).toBe(201);
    const offer = (await last(room)).leaf;
    const ejected = await room.eject("ben-bot");
    expect(ejected.status).toBe(201);
    const batch = (
      await relay.read(room.id, `/tables/${room.id}/entries?from=${ejected.body.seq}`, room.k.sara, { owner: "sara" })
    ).body.items;
    expect(batch).toMatchObject([
      { subkind: "seat_ejected", data: { seat: "ben-bot", by: "sara" } },
      { subkind: "seat_left", data: { seat: "ben-bot", reason: "ejected" } },
      { subkind: "seat_left", data: { seat: "ben-2", reason: "ejected" } },
    ]);
    expect(ejected.body.head.seq).toBe(batch.at(-1).seq);
    expect((await socket.whenClosed()).reason).toBe("seat ben-2 left the table");
    for (const seat of ["ben-bot", "ben-2"])
      await refused("E_UNKNOWN_SEAT", () => room.write(seat, { kind: "accept", offer }), {
        status: 403,
        unmoved: tableHead(relay, room.id),
      });
    await refused(
      "E_FORBIDDEN",
      async () => relay.join(room.id, room.k.ben, "ben", "ben-3", await room.seatKey("ben-3")),
      { status: 403, unmoved: tableHead(relay, room.id) },
    );
    expect((await relay.read(room.id, `/tables/${room.id}/export`, room.k.ben, { owner: "ben" })).status).toBe(200);
  });

  it("ejects only that seat of an owner the config lists, whose other seat writes on and who may seat again", async () => {
    const k = await roomCast();
    const listed = await RoomHttp.open(relay, "blanks-eject-listed", {
      overrides: { owners: { sara: { public_key: k.sara.publicKeyText }, cleo: { public_key: k.cleo.publicKeyText } } },
    });
    for (const seat of ["cleo-bot", "cleo-2"])
      expect((await relay.join(listed.id, listed.k.cleo, "cleo", seat, await listed.seatKey(seat))).status).toBe(201);
    const ejected = await listed.eject("cleo-bot");
    expect(ejected.status).toBe(201);
    expect(ejected.body.head.seq).toBe(ejected.body.seq + 1);
    expect((await listed.write("cleo-2", { kind: "offer", terms: twd(250000) })).status).toBe(201);
    expect((await relay.join(listed.id, listed.k.cleo, "cleo", "cleo-3", await listed.seatKey("cleo-3"))).status).toBe(
      201,
    );
  });
});
