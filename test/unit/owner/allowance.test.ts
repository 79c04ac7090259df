/**
 * An owner's allowance across a market's rooms (docs/MARKETS.md "An owner's allowance") on a real
 * relay, through the owner-side guard: concurrent accepts from separate processes of one owner never
 * together pass it, a reservation is counted from before the write is signed until the room's
 * verified ledger shows how it ended (a refused send, an offer that ended without a deal, a process
 * that died), a damaged store commits nothing, and the mandate's markets and categories hold. A
 * sealed bid on a listing counts in the same store under the same lock: two bids, or a bid and a
 * room's accept, from two processes at once never together pass it, and a withdrawn listing's bid
 * is released.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  AllowanceStore,
  marketBidMessage,
  readTranscript,
  reconcileAllowance,
  allowanceTotals,
  type AllowanceOwner,
  type GuardedSeat,
} from "../../../src/owner/index.js";
import { bidCommitment, dealStatement, signStatement, TrestleError, type Entry } from "../../../src/protocol/index.js";
import { seatKeyPath } from "../../../src/client/node.js";
import { cli } from "../../support/cli.js";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import { tempHome } from "../../support/room-client.js";
import { keyOf, nonceOf } from "../../support/table-fixture.js";
import type { ChildJob } from "../../support/allowance-child.js";
import {
  buildChild,
  guardOf,
  mandateAt,
  marketRooms,
  memberHome,
  seatOf,
  sellerOffers,
  storeOf,
  writeIn,
  type MarketRooms,
} from "../../support/market-rooms.js";

let relay: LocalRelay;
let child: string;
beforeAll(async () => {
  [relay, child] = await Promise.all([sharedRelay(), buildChild()]);
}, 60_000);

/** What one buyer process printed: the accept's entry, or the refusal. */
type Outcome = { ok: true; seq: number } | { ok: false; code: string; reason: string; message: string };

/** A buyer process accepting `offer` in `room` (with `crash`, reserving it and waiting to be killed). */
function buyerProcess(f: MarketRooms, room: string, offer: string, crash = false) {
  return childProcess({
    mode: crash ? "crash" : "accept",
    relay: f.url,
    home: f.home,
    room,
    seat: seatOf("ana"),
    offer,
  });
}

/** A process of ana's committing a sealed bid of `amount` on the listing at `listing` at her market. */
function bidderProcess(f: MarketRooms, listing: string, amount: number) {
  return childProcess({
    mode: "bid",
    relay: f.url,
    home: f.home,
    market: f.m.id,
    seat: seatOf("ana"),
    listing,
    amount,
  });
}

/** `seller` lists a cot at ana's market for sealed bids (reserve 0) until ten minutes from now; returns the listing's leaf. */
function sealedCot(f: MarketRooms, seller: "ben" | "chen"): Promise<string> {
  const until = Date.now() + 600_000;
  const sealed = { until, reveal_until: until + 600_000 };
  return writeIn(f, seller, f.m.id, {
    kind: "listing",
    side: "offer",
    title: `cot of ${seller}`,
    category: "baby-gear",
    quantity: 1,
    expires: sealed.reveal_until,
    price: { currency: "USD", min: 0 },
    sealed,
  });
}

/** A process adding `count` commitments to `store`'s store in `home`, one change each (killed while it holds the lock, with `dieLocked`). */
function storeProcess(home: string, store: AllowanceOwner, count: number, dieLocked = false) {
  return childProcess({ mode: dieLocked ? "die-locked" : "append", home, store, count });
}

/** The child process (allowance-child.ts) running `job`: ready once it opened what it works on, working on `go`, done with its outcome (null when it was killed); `printed` waits for a line it prints. */
function childProcess(job: ChildJob) {
  const proc = spawn(process.execPath, [child, JSON.stringify(job)], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const waiting: { line: string; resolve: () => void }[] = [];
  const printed = (line: string) => new Promise<void>((resolve) => waiting.push({ line, resolve }));
  const ready = printed("ready");
  proc.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
    for (const w of waiting) if (out.includes(`${w.line}\n`)) w.resolve();
  });
  proc.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const done = new Promise<Outcome | null>((resolve, reject) =>
    proc.on("close", (code, signal) => {
      if (signal === "SIGKILL") return resolve(null);
      const line = out.trim().split("\n").at(-1);
      if (code !== 0 || !line?.startsWith("{")) return reject(new Error(`child process exited ${code}: ${err}${out}`));
      resolve(JSON.parse(line) as Outcome);
    }),
  );
  return { ready, printed, go: () => proc.stdin.write("go\n"), kill: () => proc.kill("SIGKILL"), done };
}

/** Starts every process, lets them all go at once when every one has opened its room, and returns their outcomes. */
async function raced(processes: ReturnType<typeof buyerProcess>[]): Promise<(Outcome | null)[]> {
  await Promise.all(processes.map((p) => p.ready));
  for (const p of processes) p.go();
  return Promise.all(processes.map((p) => p.done));
}

/** The entries of `room` as `member` reads them. */
async function roomEntries(f: MarketRooms, room: string, member: "ana" | "ben" | "chen" = "ana"): Promise<Entry[]> {
  return (await f.m.read(member, `/tables/${room}/entries?from=1`, room)).body.items;
}

const acceptsBy = (entries: readonly Entry[], seat: string) =>
  entries.filter((e) => e.kind === "accept" && e.seat === seat).length;

/** The refusal `attempt` throws, a TrestleError. */
async function refused(attempt: () => Promise<unknown>): Promise<TrestleError> {
  const error = await attempt().then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof TrestleError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

/** Reconciles `store` reading each room as ana from her home. */
function reconcile(f: MarketRooms, store: AllowanceStore) {
  return reconcileAllowance(
    store,
    async (room, seat) =>
      readTranscript((await guardOf(f, room)).client, { signer: await f.m.seatKey(seat), as: { seat } }),
    () => Date.now(),
  );
}

/** Ana's market rooms under the usual mandates, where she offered 6,000 in ben's room and ben rejected it: `mine` is her offer. */
async function rejectedOffer() {
  const f = await marketRooms(relay.url);
  for (const room of Object.values(f.rooms)) await mandateAt(f, room);
  const inBen = await guardOf(f, f.rooms.ben!);
  const mine = await inBen.send({ kind: "offer", terms: { amount: 6_000, currency: "USD" } });
  const leaf = (await inBen.transcript()).entries.find((e) => e.seq === mine.seq)!.leaf;
  await writeIn(f, "ben", f.rooms.ben!, { kind: "reject", offer: leaf });
  return { f, mine };
}

describe("an owner's allowance across a market's rooms", { timeout: 60_000 }, () => {
  it("lets exactly one of two accepts in two rooms, from two processes at the same moment, through when together they would pass it", async () => {
    const f = await marketRooms(relay.url);
    for (const room of Object.values(f.rooms)) await mandateAt(f, room);
    const offers = { ben: await sellerOffers(f, "ben", 6_000), chen: await sellerOffers(f, "chen", 6_000) };
    const outcomes = await raced([
      buyerProcess(f, f.rooms.ben!, offers.ben),
      buyerProcess(f, f.rooms.chen!, offers.chen),
    ]);
    expect(outcomes.filter((o) => o?.ok)).toHaveLength(1);
    const refusal = outcomes.find((o) => o?.ok === false);
    expect(refusal).toMatchObject({ code: "E_MANDATE", reason: "allowance" });
    expect(refusal && !refusal.ok && refusal.message).toMatch(
      /120\.00 USD \(12000 minor units\), past their allowance of 100\.00 USD/,
    );
    const accepted = [await roomEntries(f, f.rooms.ben!), await roomEntries(f, f.rooms.chen!)].map((entries) =>
      acceptsBy(entries, seatOf("ana")),
    );
    expect(accepted.sort()).toEqual([0, 1]);
    expect(allowanceTotals(storeOf(f).read().commitments)).toEqual({ spent: 0, reserved: 6_000, open: 1 });
  });

  it("never lets ten processes accepting at once pass it", async () => {
    const f = await marketRooms(relay.url);
    for (const room of Object.values(f.rooms)) await mandateAt(f, room);
    const jobs: [string, string][] = [];
    for (const seller of ["ben", "chen"] as const)
      for (let i = 0; i < 5; i++) jobs.push([f.rooms[seller]!, await sellerOffers(f, seller, 3_000)]);
    const outcomes = await raced(jobs.map(([room, offer]) => buyerProcess(f, room, offer)));
    // 3 × 3,000 is the most 10,000 holds.
    expect(outcomes.filter((o) => o?.ok)).toHaveLength(3);
    expect(outcomes.filter((o) => o?.ok === false && o.reason === "allowance")).toHaveLength(7);
    const accepted =
      acceptsBy(await roomEntries(f, f.rooms.ben!), seatOf("ana")) +
      acceptsBy(await roomEntries(f, f.rooms.chen!), seatOf("ana"));
    expect(accepted).toBe(3);
    expect(allowanceTotals(storeOf(f).read().commitments)).toEqual({ spent: 0, reserved: 9_000, open: 3 });
  });

  it("spends a deal once both owners signed it, counting the deal_sign after the accept once", async () => {
    const f = await marketRooms(relay.url, ["chen"]);
    await mandateAt(f, f.rooms.chen!);
    const offer = await sellerOffers(f, "chen", 4_000);
    const ana = await guardOf(f, f.rooms.chen!);
    await ana.send({ kind: "accept", offer });
    const deal = (await ana.transcript()).state!.room!.deals[offer]!;
    const sig = await signStatement(f.ownerKey, "deal", dealStatement(f.rooms.chen!, deal.terms_sha256));
    await ana.send({
      kind: "deal_sign",
      offer,
      deal: deal.terms_sha256,
      owner_key: f.ownerKey.publicKeyText,
      owner_sig: sig,
    });
    expect(storeOf(f).read().commitments).toHaveLength(1);
    expect((await f.m.signDeal("chen", f.rooms.chen!, seatOf("chen"), offer, deal.terms_sha256)).status).toBe(201);
    await reconcile(f, storeOf(f));
    expect(allowanceTotals(storeOf(f).read().commitments)).toEqual({ spent: 4_000, reserved: 0, open: 0 });
  });

  it("counts a sealed bid at its bid until the auction settles, then the deal at the clearing price", async () => {
    const f = await marketRooms(relay.url, ["chen"]);
    const room = f.rooms.chen!;
    await mandateAt(f, room);
    const deadline = Date.now() + 600_000;
    const open = {
      kind: "mechanism",
      op: "open",
      sides: { buyer: seatOf("ana"), seller: seatOf("chen") },
      k: { num: 1, den: 2 },
      currency: "USD",
      deadline,
      reveal_deadline: deadline + 600_000,
    } as const;
    const auction = await writeIn(f, "chen", room, open);
    const ana = await guardOf(f, room);
    await ana.send(await ana.bidMessage(auction, 6_000));
    expect(storeOf(f).read().commitments).toEqual([
      expect.objectContaining({ kind: "mechanism", amount: 6_000, deal: auction, state: "open" }),
    ]);
    const salt = nonceOf(`salt:${f.m.id}`);
    await writeIn(f, "chen", room, {
      kind: "mechanism",
      op: "commit",
      auction,
      side: "seller",
      commitment: bidCommitment({ table: room, auction, side: "seller", bid: 4_000, salt }),
    });
    await ana.send(await ana.revealMessage(auction));
    await writeIn(f, "chen", room, { kind: "mechanism", op: "reveal", auction, bid: 4_000, salt });
    const deal = (await ana.transcript()).state!.room!.deals[auction]!;
    const sig = await signStatement(f.ownerKey, "deal", dealStatement(room, deal.terms_sha256));
    await ana.send({
      kind: "deal_sign",
      offer: auction,
      deal: deal.terms_sha256,
      owner_key: f.ownerKey.publicKeyText,
      owner_sig: sig,
    });
    expect((await f.m.signDeal("chen", room, seatOf("chen"), auction, deal.terms_sha256)).status).toBe(201);
    await reconcile(f, storeOf(f));
    expect(storeOf(f).read().commitments).toEqual([
      expect.objectContaining({ kind: "mechanism", amount: 5_000, state: "spent" }),
    ]);
  });

  it("holds a seller to the number of open commitments, counting none of its amounts", async () => {
    const f = await marketRooms(relay.url, ["ben"]);
    const home = await memberHome(f.m, "ben");
    await mandateAt(f, f.rooms.ben!, { allowance: { currency: "USD", total: 0, open: 1 } }, { member: "ben", home });
    const ben = await guardOf(f, f.rooms.ben!, { member: "ben", home });
    await ben.send({ kind: "offer", terms: { amount: 5_000, currency: "USD" } });
    const error = await refused(() => ben.send({ kind: "offer", terms: { amount: 4_000, currency: "USD" } }));
    expect(error.details).toMatchObject({ reason: "open" });
    expect(error.message).toMatch(/at most 1 open commitment across .* and 1 is open/);
    expect(allowanceTotals(storeOf(f, "ben", home).read().commitments)).toEqual({ spent: 0, reserved: 0, open: 1 });
  });

  it("loses no change of ten processes changing the store at once, after breaking the lock of one that died holding it", async () => {
    const home = tempHome("ana");
    const who = { owner: "ana", ownerKey: (await keyOf("owner:ana")).publicKeyText, market: "m-store-race" };
    const store = new AllowanceStore(home, who);
    expect(await raced([storeProcess(home, who, 0, true)])).toEqual([null]);
    expect(existsSync(`${store.path}.lock`)).toBe(true);
    const outcomes = await raced(Array.from({ length: 10 }, () => storeProcess(home, who, 40)));
    expect(outcomes.every((o) => o?.ok)).toBe(true);
    const file = store.read();
    expect(file.commitments).toHaveLength(400);
    expect(file.version).toBe(400);
    expect(readdirSync(dirname(store.path))).toEqual(["m-store-race.json"]);
  });

  it("lets exactly one of two sealed bids, from two processes at the same moment, through when together they would pass it", async () => {
    const f = await marketRooms(relay.url);
    await mandateAt(f, f.m.id);
    const cots = [await sealedCot(f, "ben"), await sealedCot(f, "chen")];
    const outcomes = await raced(cots.map((cot) => bidderProcess(f, cot, 6_000)));
    expect(outcomes.filter((o) => o?.ok)).toHaveLength(1);
    expect(outcomes.find((o) => o?.ok === false)).toMatchObject({ code: "E_MANDATE", reason: "allowance" });
    const commits = (await roomEntries(f, f.m.id)).filter((e) => e.kind === "bid" && e.seat === seatOf("ana"));
    expect(commits).toHaveLength(1);
    expect(storeOf(f).read().commitments).toEqual([
      expect.objectContaining({
        room: f.m.id,
        kind: "bid",
        side: "buyer",
        amount: 6_000,
        state: "open",
        seq: commits[0]!.seq,
      }),
    ]);
  });

  it("lets exactly one of a sealed bid and a room's accept, from two processes at the same moment, through when together they would pass it", async () => {
    const f = await marketRooms(relay.url, ["chen"]);
    await mandateAt(f, f.m.id);
    await mandateAt(f, f.rooms.chen!);
    const cot = await sealedCot(f, "chen");
    const offer = await sellerOffers(f, "chen", 6_000);
    const outcomes = await raced([bidderProcess(f, cot, 6_000), buyerProcess(f, f.rooms.chen!, offer)]);
    expect(outcomes.filter((o) => o?.ok)).toHaveLength(1);
    expect(outcomes.find((o) => o?.ok === false)).toMatchObject({ code: "E_MANDATE", reason: "allowance" });
    const written =
      (await roomEntries(f, f.m.id)).filter((e) => e.kind === "bid").length +
      acceptsBy(await roomEntries(f, f.rooms.chen!), seatOf("ana"));
    expect(written).toBe(1);
    expect(allowanceTotals(storeOf(f).read().commitments)).toEqual({ spent: 0, reserved: 6_000, open: 1 });
  });

  describe("when a reservation's write does not become a deal", () => {
    it("releases a sealed bid once its listing was withdrawn, so the bid that needs what it held goes through", async () => {
      const f = await marketRooms(relay.url);
      await mandateAt(f, f.m.id);
      const [bens, chens] = [await sealedCot(f, "ben"), await sealedCot(f, "chen")];
      const ana = await guardOf(f, f.m.id);
      await ana.send(await marketBidMessage(ana, bens, 6_000));
      const before = (await roomEntries(f, f.m.id)).length;
      expect((await refused(async () => ana.send(await marketBidMessage(ana, chens, 6_000)))).details).toMatchObject({
        reason: "allowance",
      });
      expect((await roomEntries(f, f.m.id)).length).toBe(before);
      await writeIn(f, "ben", f.m.id, { kind: "unlist", listing: bens });
      expect((await ana.send(await marketBidMessage(ana, chens, 6_000))).seq).toBeGreaterThan(before);
      expect(storeOf(f).read().commitments).toEqual([
        expect.objectContaining({ kind: "bid", listing: chens, amount: 6_000, state: "open" }),
      ]);
    });

    it("releases the reservation of a send the relay refused", async () => {
      const f = await marketRooms(relay.url);
      for (const room of Object.values(f.rooms)) await mandateAt(f, room);
      const offers = { ben: await sellerOffers(f, "ben", 6_000), chen: await sellerOffers(f, "chen", 6_000) };
      let withdrawn = false;
      // Ben withdraws his offer after ana's guard read it live and reserved it, just before her accept reaches the relay.
      const late = async (url: string, init?: RequestInit): Promise<Response> => {
        if (!withdrawn && init?.method === "POST" && url.endsWith(`/tables/${f.rooms.ben}/entries`)) {
          withdrawn = true;
          await writeIn(f, "ben", f.rooms.ben!, { kind: "withdraw", offer: offers.ben });
        }
        return fetch(url, init);
      };
      const ana = await guardOf(f, f.rooms.ben!, { fetch: late });
      expect((await refused(() => ana.send({ kind: "accept", offer: offers.ben }))).code).toBe("E_NOT_LIVE");
      expect(storeOf(f).read().commitments).toEqual([]);
      expect(
        (await (await guardOf(f, f.rooms.chen!)).send({ kind: "accept", offer: offers.chen })).seq,
      ).toBeGreaterThan(0);
    });

    it("counts an offer of hers that ended without a deal until a reconcile (trestle allowance reconcile) reads its room", async () => {
      const { f, mine } = await rejectedOffer();
      const t = cli(f.home, relay.url);
      const flags = ["--owner", "ana", "--market", f.m.id];
      expect((await t.run(["allowance", "show", ...flags])).stdout).toContain(
        `ana in market ${f.m.id}: spent 0.00 USD, reserved 60.00 USD, 1 open\n  ${f.rooms.ben}  offer #${mine.seq}  buyer  60.00 USD`,
      );
      const done = await t.json(["allowance", "reconcile", ...flags]);
      expect(done.code, done.stderr).toBe(0);
      expect(done.body).toMatchObject({
        before: { reserved: 6_000, open: 1 },
        after: { reserved: 0, open: 0 },
        rooms: [{ room: f.rooms.ben, ok: true }],
      });
    });

    it("reads the other rooms before refusing, so an offer rejected there no longer holds what an accept here needs, unless this home cannot read them", async () => {
      const { f } = await rejectedOffer();
      const chens = await sellerOffers(f, "chen", 6_000);
      const inChen = await guardOf(f, f.rooms.chen!);
      const keyFile = seatKeyPath(f.home, seatOf("ana"));
      renameSync(keyFile, `${keyFile}.away`);
      expect((await refused(() => inChen.send({ kind: "accept", offer: chens }))).details).toMatchObject({
        reason: "allowance",
      });
      renameSync(`${keyFile}.away`, keyFile);
      expect((await inChen.send({ kind: "accept", offer: chens })).seq).toBeGreaterThan(0);
      expect(allowanceTotals(storeOf(f).read().commitments)).toEqual({ spent: 0, reserved: 6_000, open: 1 });
    });

    it("counts the reservation of a process that reserved and never signed while it runs, and releases it once it was killed", async () => {
      const f = await marketRooms(relay.url);
      for (const room of Object.values(f.rooms)) await mandateAt(f, room);
      const offers = { ben: await sellerOffers(f, "ben", 6_000), chen: await sellerOffers(f, "chen", 6_000) };
      const crashing = buyerProcess(f, f.rooms.ben!, offers.ben, true);
      await crashing.ready;
      crashing.go();
      await crashing.printed("reserved");
      const [reservation] = storeOf(f).read().commitments;
      expect(reservation).toMatchObject({ room: f.rooms.ben, kind: "accept", amount: 6_000, state: "open" });
      expect(reservation!.seq).toBeUndefined();
      const inChen = await guardOf(f, f.rooms.chen!);
      expect((await refused(() => inChen.send({ kind: "accept", offer: offers.chen }))).details).toMatchObject({
        reason: "allowance",
      });
      crashing.kill();
      expect(await crashing.done).toBeNull();
      expect((await inChen.send({ kind: "accept", offer: offers.chen })).seq).toBeGreaterThan(0);
      expect(storeOf(f).read().commitments).toEqual([expect.objectContaining({ room: f.rooms.chen, kind: "accept" })]);
      expect(acceptsBy(await roomEntries(f, f.rooms.ben!), seatOf("ana"))).toBe(0);
    });
  });

  describe("when the store cannot be trusted", () => {
    it("commits nothing that spends while its newest version is damaged, and other writes still go out", async () => {
      const f = await marketRooms(relay.url, ["chen"]);
      await mandateAt(f, f.rooms.chen!);
      const ana = await guardOf(f, f.rooms.chen!);
      await ana.send({ kind: "offer", terms: { amount: 1_000, currency: "USD" } });
      const store = storeOf(f);
      writeFileSync(store.path, '{"v":1,"commitments":"lost"}');
      const offer = await sellerOffers(f, "chen", 1_000);
      const before = (await roomEntries(f, f.rooms.chen!)).length;
      const error = await refused(() => ana.send({ kind: "accept", offer }));
      expect(error.code).toBe("E_MANDATE");
      expect(error.details).toMatchObject({ reason: "allowance_store" });
      expect(error.message).toMatch(/cannot be trusted: .* is malformed/);
      expect(ana.journal.ofType("refusal").at(-1)).toMatchObject({
        guard: "mandate",
        reason: "allowance_store",
        kind: "accept",
      });
      expect((await roomEntries(f, f.rooms.chen!)).length).toBe(before);
      expect((await ana.send({ kind: "say", body: "one moment" })).seq).toBe(before + 1);
    });
  });

  describe("when the mandate names markets or categories", () => {
    it("refuses a trade in a market or category it does not name before signing, and lets one it names through", async () => {
      const f = await marketRooms(relay.url, ["chen"]);
      const room = f.rooms.chen!;
      const offer = await sellerOffers(f, "chen", 1_000);
      const ana = await guardOf(f, room);
      const reasonOf = async (seat: GuardedSeat, input: Parameters<GuardedSeat["send"]>[0]) =>
        (await refused(() => seat.send(input))).details?.reason;
      await mandateAt(f, room, { markets: ["m-another-market"] });
      expect(await reasonOf(ana, { kind: "accept", offer })).toBe("market");
      await mandateAt(f, room, { markets: [f.m.id], categories: ["books"] });
      expect(await reasonOf(ana, { kind: "accept", offer })).toBe("category");
      expect(ana.journal.ofType("refusal").at(-1)?.message).toMatch(/category baby-gear \(only in books\)/);
      await mandateAt(f, room, { markets: [f.m.id], categories: ["books", "baby-gear"] });
      expect((await ana.send({ kind: "accept", offer })).seq).toBeGreaterThan(0);
    });

    it("refuses a listing in a category it does not name at the market itself", async () => {
      const f = await marketRooms(relay.url, ["chen"]);
      await mandateAt(f, f.m.id, { categories: ["baby-gear"] });
      const ana = await guardOf(f, f.m.id);
      const listing = {
        kind: "listing",
        side: "offer",
        title: "Picture books",
        category: "books",
        quantity: 1,
        expires: Date.now() + 3_600_000,
      } as const;
      expect((await refused(() => ana.send(listing))).details).toMatchObject({ reason: "category" });
      expect((await ana.send({ ...listing, category: "baby-gear", title: "Baby monitor" })).seq).toBeGreaterThan(0);
    });
  });
});
