/**
 * Sealed-bid auctions and end-to-end encrypted rooms through the table object (docs/SPEC.md §5.11,
 * §5.12): the relay refuses a reveal before every side committed, settles the auction the moment
 * the last reveal decides it, and settles one that nobody finished at its deadline from the alarm
 * (once, and the same after an eviction); a deal it settled is signed by both owners and folded the
 * same after an eviction; an e2e room takes no plaintext and its notifications
 * carry no content.
 */
import { SELF, env, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { TableDO } from "../../durable-objects/table/table.js";
import {
  bidCommitment,
  dealStatement,
  dealStatus,
  SEALED_PREFIX,
  signStatement,
  toBase64url,
  verifyExport,
  type Entry,
} from "../../src/protocol/index.js";
import { bindVia, drain, requests } from "../support/chat-driver.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { expect201, RoomHttp } from "../support/room-http.js";
import { nonceOf } from "../support/table-fixture.js";

/** This file's own owner keys: chat bindings and bind codes count per owner key, and other files share the relay. */
const CAST = "room-auction";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));

const COMMIT_MS = 600_000;
const REVEAL_MS = 600_000;

const stub = (id: string) => env.TABLES.getByName(id) as DurableObjectStub<TableDO>;
const headSeq = async (id: string) => (await relay.request("GET", `/tables/${id}/head`)).body.seq as number;
const salt = (seat: string) => nonceOf(`salt:${seat}`);

/** The stroller room `id` with ben-bot admitted and an auction open (ben buys, sara sells); returns the room and the auction's leaf. */
async function auctionRoom(id: string): Promise<{ room: RoomHttp; auction: string }> {
  const room = await RoomHttp.open(relay, id, { cast: CAST });
  expect201(await room.admit(room.k.ben, "ben", "ben-bot"));
  const deadline = Date.now() + COMMIT_MS;
  const opened = expect201(
    await room.write("sara-bot", {
      kind: "mechanism",
      op: "open",
      sides: { buyer: "ben-bot", seller: "sara-bot" },
      k: { num: 1, den: 2 },
      currency: "TWD",
      deadline,
      reveal_deadline: deadline + REVEAL_MS,
    }),
  );
  const page = await relay.read(
    id,
    `/tables/${id}/entries?from=${opened.body.seq}&to=${opened.body.seq}`,
    room.k.sara,
    { owner: "sara" },
  );
  return { room, auction: (page.body.items[0] as Entry).leaf };
}

const commit = (room: RoomHttp, seat: string, auction: string, side: "buyer" | "seller", bid: number) =>
  room.write(seat, {
    kind: "mechanism",
    op: "commit",
    auction,
    side,
    commitment: bidCommitment({ table: room.id, auction, side, bid, salt: salt(seat) }),
  });
const reveal = (room: RoomHttp, seat: string, auction: string, bid: number) =>
  room.write(seat, { kind: "mechanism", op: "reveal", auction, bid, salt: salt(seat) });

/** The room's export as sara, verified against the relay's key. */
async function exported(room: RoomHttp) {
  const text = (await relay.read(room.id, `/tables/${room.id}/export`, room.k.sara, { owner: "sara" })).body as string;
  const key = (await relay.request("GET", "/.well-known/trestle.json")).body.relay_key as string;
  return { text, report: await verifyExport(text, { relayKey: key }) };
}

describe("a sealed-bid auction at the relay", () => {
  it("settles with a deal at the clearing price on the last reveal, and the export verifies CLEAN", async () => {
    const { room, auction } = await auctionRoom("room-auction-deal");
    expect201(await commit(room, "ben-bot", auction, "buyer", 300000));
    expect201(await commit(room, "sara-bot", auction, "seller", 240000));
    expect201(await reveal(room, "ben-bot", auction, 300000));
    const last = expect201(await reveal(room, "sara-bot", auction, 240000));
    expect(await headSeq(room.id)).toBe(last.body.seq + 1);
    const { text, report } = await exported(room);
    expect(report.verdict).toBe("CLEAN");
    expect(text).toContain('"subkind":"auction_settled"');
    expect(text).toMatch(/"outcome":"deal","price":270000/);
  });

  it("opens a deal both owners sign on the settlement, folded the same after an eviction", async () => {
    const { room, auction } = await auctionRoom("room-auction-deal-sign");
    expect201(await commit(room, "ben-bot", auction, "buyer", 300000));
    expect201(await commit(room, "sara-bot", auction, "seller", 240000));
    expect201(await reveal(room, "ben-bot", auction, 300000));
    expect201(await reveal(room, "sara-bot", auction, 240000));
    const table = stub(room.id);
    const deal = await runInDurableObject(
      table,
      (instance: TableDO) => instance.table.state!.room!.deals[auction]!.terms_sha256,
    );
    for (const [seat, owner] of [
      ["ben-bot", room.k.ben],
      ["sara-bot", room.k.sara],
    ] as const) {
      expect201(
        await room.write(seat, {
          kind: "deal_sign",
          offer: auction,
          deal,
          owner_key: owner.publicKeyText,
          owner_sig: await signStatement(owner, "deal", dealStatement(room.id, deal)),
        }),
      );
    }
    const signed = await runInDurableObject(table, (instance: TableDO) => instance.table.state!.room!.deals[auction]);
    await evictDurableObject(table);
    expect(await runInDurableObject(table, (instance: TableDO) => instance.table.state!.room!.deals[auction])).toEqual(
      signed,
    );
    expect(signed).toMatchObject({
      terms: {
        via: "auction",
        terms: { amount: 270000, currency: "TWD" },
        offered_by: { owner: "sara" },
        accepted_by: { owner: "ben" },
      },
    });
    expect(dealStatus(signed!)).toBe("done");
    expect((await exported(room)).report.verdict).toBe("CLEAN");
  });

  it("refuses a reveal before the other side committed, and leaves the ledger as it was", async () => {
    const { room, auction } = await auctionRoom("room-auction-early");
    expect201(await commit(room, "ben-bot", auction, "buyer", 300000));
    const early = await headUnmoved(relay, room.id, () => reveal(room, "ben-bot", auction, 300000));
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ code: "E_NOT_ALLOWED", details: { waiting_for: ["seller"] } });
  });

  it("is settled by the alarm at the reveal deadline when a side never committed: once, and the same after an eviction", async () => {
    const { room, auction } = await auctionRoom("room-auction-alarm");
    expect201(await commit(room, "ben-bot", auction, "buyer", 300000));
    const table = stub(room.id);
    const [alarm, due] = await runInDurableObject(table, async (instance: TableDO, state) => [
      await state.storage.getAlarm(),
      instance.table.state!.room!.auctions[auction]!.reveal_deadline,
    ]);
    expect(alarm).toBe(due);
    const before = await headSeq(room.id);
    await runInDurableObject(table, (instance: TableDO) => {
      instance.table.now = () => due;
    });
    expect(await runDurableObjectAlarm(table)).toBe(true);
    expect(await headSeq(room.id)).toBe(before + 1);
    await runInDurableObject(table, (instance: TableDO) => instance.alarm());
    expect(await headSeq(room.id)).toBe(before + 1);
    const settled = await runInDurableObject(
      table,
      (instance: TableDO) => instance.table.state!.room!.auctions[auction],
    );
    await evictDurableObject(table);
    expect(
      await runInDurableObject(table, (instance: TableDO) => instance.table.state!.room!.auctions[auction]),
    ).toEqual(settled);
    expect(settled).toMatchObject({ settled: before + 1, price: null });
    const { text, report } = await exported(room);
    expect(report.verdict).toBe("CLEAN");
    expect(text).toContain('"reason":"missing_commit"');
  });
});

/** A text in the sealed form (the relay cannot tell it from a real one: only a room key opens it). */
function sealedLooking(label: string): string {
  return SEALED_PREFIX + toBase64url(new TextEncoder().encode(`${label}:`.padEnd(48, "x")));
}

describe("an end-to-end encrypted room at the relay", () => {
  it("takes sealed text and refuses plaintext, in a body and in terms", async () => {
    const room = await RoomHttp.open(relay, "room-e2e-plain", { cast: CAST, overrides: { room: { e2e: true } } });
    expect201(await room.write("sara-bot", { kind: "say", body: sealedLooking("hello") }));
    const plain = await headUnmoved(relay, room.id, () =>
      room.write("sara-bot", { kind: "say", body: "hello in the clear" }),
    );
    expect(plain.status).toBe(400);
    expect(plain.body.error).toMatchObject({ code: "E_PLAINTEXT", details: { path: "body" } });
    const terms = await headUnmoved(relay, room.id, () =>
      room.write("sara-bot", { kind: "offer", terms: { amount: 1, currency: "TWD", text: "in the clear" } }),
    );
    expect(terms.body.error).toMatchObject({ code: "E_PLAINTEXT", details: { path: "terms.text" } });
  });

  it("sends notifications with no content: no topic, no note text, only where to read it", async () => {
    const room = await RoomHttp.open(relay, "room-e2e-notice", {
      cast: CAST,
      overrides: { room: { e2e: true }, topic: "Secret stroller deal" },
    });
    await room.admit(room.k.ben, "ben", "ben-bot");
    await bindVia("telegram", room.k.ben, "93201");
    await drain(room.k.ben.publicKeyText);
    const note = sealedLooking("note");
    expect((await room.note("ben-bot", note)).status).toBe(201);
    expect201(await room.write("ben-bot", { kind: "close", outcome: "no_deal" }));
    await runInDurableObject(stub(room.id), (instance: TableDO) => instance.table.noticesSettled());
    await drain(room.k.ben.publicKeyText);
    const sent = (await requests('"chat_id":"93201"'))
      .map((r) => JSON.stringify(r.body))
      .filter((body) => body.includes(room.id));
    // The note, the close without a deal as room news (ben's default, decision 0415), and the table closing.
    expect(sent).toHaveLength(3);
    for (const body of sent) {
      expect(body).not.toContain("Secret stroller");
      expect(body).not.toContain(note.slice(0, 20));
      expect(body).toContain("end-to-end encrypted");
    }
  });
});
