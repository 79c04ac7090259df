/**
 * The table object as a replica and as the relay taking custody (docs/SPEC.md §8.4), in workerd:
 * a ledger another relay ordered (built here with its own relay key) fed in pages, read-only until
 * its owners hand it over, then written on with this relay's heads; eviction at every stage.
 */
import { SELF, env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  canonicalize,
  custodyStatementFor,
  exportHeadPoints,
  leafOf,
  LIMITS,
  MIRROR_REFUSALS_KEPT,
  parseExport,
  signCustody,
  verifyExport,
  type Entry,
  type SignedHead,
} from "../../src/protocol/index.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { cast, debateConfig, keyOf, MemoryLedger, seatedDebate, type Cast } from "../support/table-fixture.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
const relayKey = async (): Promise<string> => (await relay.request("GET", "/.well-known/trestle.json")).body.relay_key;
const stub = (id: string) => env.TABLES.getByName(id);
const stateOf = (id: string) => runInDurableObject(stub(id), (instance: TableDO) => canonicalize(instance.table.state));

/** A debate another relay (key "relay-elsewhere") ordered: seated, with a say by bot-tao. */
async function elsewhere(id: string): Promise<{ k: Cast; l: MemoryLedger }> {
  const k = await cast();
  return { k, l: await elsewhereFrom(id, k, "pro, at the first relay") };
}

const page = (items: readonly Entry[], head: SignedHead) => ({ items, originals: [], head });

/** The owners' custody request handing `head`'s chain to this relay, signed by `owners`. */
async function custodyRequest(k: Cast, head: SignedHead, owners: readonly ("tao" | "jenny" | "ops")[]) {
  const statement = custodyStatementFor(head, await relayKey());
  return {
    statement,
    owners: await Promise.all(
      owners.map(async (o) => ({ owner: o, sig: (await signCustody(k[o], o, statement)).sig })),
    ),
  };
}

describe("a replica fed another relay's ledger", () => {
  it("holds it read-only with the other relay's head, and survives eviction as a mirror", async () => {
    const id = "replica-readonly";
    const { k, l } = await elsewhere(id);
    const head = await l.head();
    const fed = await relay.request("POST", `/tables/${id}/replica`, page(l.entries, head));
    expect(fed.status).toBe(200);
    expect(fed.body).toMatchObject({
      table: id,
      mirror: true,
      relay: l.relay.publicKeyText,
      seq: head.seq,
      head,
      evidence: [],
    });

    const before = await stateOf(id);
    await evictDurableObject(stub(id));
    expect(await stateOf(id)).toBe(before);
    expect((await relay.request("GET", `/tables/${id}/head`)).body).toEqual(head);
    const write = await relay.say(id, k.botJenny, { seat: "bot-jenny", kind: "say", body: "con" });
    expect(write.status).toBe(409);
    expect(write.body.error).toMatchObject({ code: "E_MIRROR", details: { relay: l.relay.publicKeyText } });

    const text = (await relay.read(id, `/tables/${id}/export`, k.ops, { owner: "ops" })).body as string;
    expect((await verifyExport(text, { relayKey: l.relay.publicKeyText })).verdict).toBe("CLEAN");
  });

  it("catches up page by page, across an eviction, and takes the same page again without change", async () => {
    const id = "replica-catch-up";
    const { k, l } = await elsewhere(id);
    const first = await l.head();
    const upTo = first.seq;
    await l.submit(k.botJenny, { seat: "bot-jenny", kind: "say", body: "con, while the mirror was away" });
    expect((await relay.request("POST", `/tables/${id}/replica`, page(l.entries.slice(0, upTo), first))).status).toBe(
      200,
    );
    await evictDurableObject(stub(id));
    const again = await relay.request("POST", `/tables/${id}/replica`, page(l.entries.slice(0, upTo), first));
    expect(again.body.seq).toBe(upTo);
    const later = await l.head();
    const caught = await relay.request("POST", `/tables/${id}/replica`, page(l.entries, later));
    expect(caught.body).toMatchObject({ seq: later.seq, head: later });
  });

  describe("when a page is refused", () => {
    it("refuses an altered entry (E_REFUTED, 422) and stores nothing of it", async () => {
      const id = "replica-refuted";
      const { l } = await elsewhere(id);
      const items = structuredClone(l.entries);
      (items[5] as Extract<Entry, { kind: "say" }>).body = "pro, as a relay would like it";
      const refused = await relay.request("POST", `/tables/${id}/replica`, page(items, await l.head()));
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({ code: "E_REFUTED", details: { seq: 6 } });
      expect((await relay.request("GET", `/tables/${id}/head`)).body.error.code).toBe("E_TABLE_NOT_FOUND");
    });

    it("refuses a page that changes an entry the mirror holds or brings an altered one (E_REFUTED), stores none of it, and records each across eviction", async () => {
      const id = "replica-altered";
      const { k, l } = await elsewhere(id);
      const held = await l.head();
      await relay.request("POST", `/tables/${id}/replica`, page(l.entries, held));
      await l.submit(k.botJenny, { seat: "bot-jenny", kind: "say", body: "con, after the mirror took its page" });
      const next = await l.head();
      const fresh = held.seq + 1;
      const altered = {
        "a held entry with its old leaf": [reworded(l.entries.slice(0, held.seq), 6), held, 6],
        "a held entry with its old leaf, before a true new entry": [reworded(l.entries, 6), next, 6],
        "a held entry with its leaf recomputed but its old link": [
          reworded(l.entries.slice(0, held.seq), 6, { leaf: true }),
          held,
          6,
        ],
        "a new entry with its old leaf": [reworded(l.entries, fresh), next, fresh],
      } as const;
      const before = await ledgerOf(id);
      for (const [what, [items, head, seq]] of Object.entries(altered)) {
        const refused = await relay.request("POST", `/tables/${id}/replica`, page(items, head));
        expect(refused.status, what).toBe(422);
        expect(refused.body.error, what).toMatchObject({ code: "E_REFUTED", details: { seq } });
      }
      expect(await ledgerOf(id)).toBe(before);

      await evictDurableObject(stub(id));
      const status = (await relay.request("GET", `/tables/${id}/replica`)).body;
      expect(status).toMatchObject({ seq: held.seq, head: held, evidence: [] });
      expect(status.refused.map((r: { seq: number }) => r.seq)).toEqual(Object.values(altered).map(([, , seq]) => seq));
      expect(status.refused[0].reason).toMatch(/changes held entry 6/);
      // A refused page proves nothing about the relay (anyone may send one): the mirror follows on.
      expect((await relay.request("POST", `/tables/${id}/replica`, page(l.entries, next))).body).toMatchObject({
        seq: next.seq,
        head: next,
      });
    });

    it("keeps only the newest refused pages", async () => {
      const id = "replica-refusals-kept";
      const { l } = await elsewhere(id);
      const held = await l.head();
      await relay.request("POST", `/tables/${id}/replica`, page(l.entries, held));
      for (let i = 0; i <= MIRROR_REFUSALS_KEPT; i++) {
        const items = reworded(l.entries, 1 + (i % held.seq));
        expect((await relay.request("POST", `/tables/${id}/replica`, page(items, held))).status).toBe(422);
      }
      const { refused } = (await relay.request("GET", `/tables/${id}/replica`)).body;
      expect(refused).toHaveLength(MIRROR_REFUSALS_KEPT);
      expect(refused[0].seq).toBe(2);
    });

    it("refuses a page for an id this relay holds itself (E_TABLE_EXISTS)", async () => {
      const id = "replica-taken";
      const { k, l } = await elsewhere(id);
      expect((await relay.create(k.ops, "ops", debateConfig(k, { id, topic: "another table" }))).status).toBe(201);
      const head = await l.head();
      const taken = await headUnmoved(relay, id, () =>
        relay.request("POST", `/tables/${id}/replica`, page(l.entries, head)),
      );
      expect(taken.status).toBe(409);
      expect(taken.body.error.code).toBe("E_TABLE_EXISTS");
    });

    it("refuses a page that skips entries the mirror lacks (E_SCHEMA naming its tip)", async () => {
      const id = "replica-gap";
      const { k, l } = await elsewhere(id);
      const first = await l.head();
      await relay.request("POST", `/tables/${id}/replica`, page(l.entries, first));
      await l.submit(k.botJenny, { seat: "bot-jenny", kind: "say", body: "con" });
      const gap = await relay.request(
        "POST",
        `/tables/${id}/replica`,
        page(l.entries.slice(first.seq + 1), await l.head()),
      );
      expect(gap.body.error).toMatchObject({ code: "E_SCHEMA" });
    });
  });

  it("refuses a fork by the relay it follows, keeps the evidence across eviction, and follows it no further", async () => {
    const id = "replica-fork";
    const { k, l } = await elsewhere(id);
    const held = await l.head();
    await relay.request("POST", `/tables/${id}/replica`, page(l.entries, held));
    // The same relay key signs another chain from entry 6: a say worded otherwise, then a head over it.
    const rebuilt = await elsewhereFrom(id, k, "pro, on the other branch");
    const head = await rebuilt.head();
    const refused = await relay.request("POST", `/tables/${id}/replica`, page(rebuilt.entries.slice(5), head));
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("E_FORK");
    expect(refused.body.error.details.evidence).toMatchObject({ kind: "fork", seq: 6, heads: [held, head] });

    await evictDurableObject(stub(id));
    const status = await relay.request("GET", `/tables/${id}/replica`);
    expect(status.body.evidence).toHaveLength(1);
    expect(status.body.evidence[0].branch.map((b: { seq: number }) => b.seq)).toEqual([6, 7]);
    await l.submit(k.botJenny, { seat: "bot-jenny", kind: "say", body: "con" });
    const next = await relay.request("POST", `/tables/${id}/replica`, page(l.entries.slice(held.seq), await l.head()));
    expect(next.body.error.code).toBe("E_FORK");
  });
});

/** `items` with entry `seq` changed, keeping its leaf and link (or, with `leaf`, its leaf recomputed from the change but its old link). */
function reworded(items: readonly Entry[], seq: number, options: { leaf?: boolean } = {}): Entry[] {
  const copy = structuredClone(items) as Entry[];
  const entry = copy[seq - 1]!;
  if (entry.kind === "say") entry.body = `${entry.body}, as a sender would like it`;
  else entry.ts += 1;
  if (options.leaf) entry.leaf = leafOf(entry);
  return copy;
}

/** The ledger the table object holds, as text. */
const ledgerOf = (id: string) =>
  runInDurableObject(stub(id), (instance: TableDO) => canonicalize(instance.table.ledger.all()));

/** The same debate as `elsewhere` with bot-tao's say worded `body`: another chain from entry 6, under the same relay key. */
async function elsewhereFrom(id: string, k: Cast, body: string): Promise<MemoryLedger> {
  return seatedDebate(k, await keyOf("relay-elsewhere"), { id }, body);
}

describe("taking custody here", () => {
  it("appends the owners' custody entry signed by this relay, then takes writes with its own heads, before and after eviction", async () => {
    const id = "custody-import";
    const { k, l } = await elsewhere(id);
    const head = await l.head();
    await relay.request("POST", `/tables/${id}/replica`, page(l.entries, head));
    const taken = await relay.request("POST", `/tables/${id}/custody`, await custodyRequest(k, head, ["tao", "jenny"]));
    expect(taken.status).toBe(201);
    expect(taken.body).toMatchObject({ seq: head.seq + 1, head: { relay: await relayKey(), seq: head.seq + 1 } });

    const said = await relay.say(id, k.botJenny, { seat: "bot-jenny", kind: "say", body: "con, at the new relay" });
    expect(said.status).toBe(201);
    const before = await stateOf(id);
    await evictDurableObject(stub(id));
    expect(await stateOf(id)).toBe(before);
    expect((await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "pro, after eviction" })).status).toBe(
      201,
    );

    const text = (await relay.read(id, `/tables/${id}/export`, k.ops, { owner: "ops" })).body as string;
    const report = await verifyExport(text, { relayKey: await relayKey() });
    expect(report.verdict).toBe("CLEAN");
    expect(report.coverage.past_keys).toEqual([
      { relay: l.relay.publicKeyText, from: 1, to: head.seq, head_seq: head.seq },
    ]);
    const retried = await relay.request(
      "POST",
      `/tables/${id}/custody`,
      await custodyRequest(k, head, ["tao", "jenny"]),
    );
    expect(retried.body.seq).toBe(head.seq + 1);
  });

  describe("when the owners did not authorise it", () => {
    it("refuses one owner of three (E_FORBIDDEN) and stays a read-only mirror", async () => {
      const id = "custody-one-owner";
      const { k, l } = await elsewhere(id);
      const head = await l.head();
      await relay.request("POST", `/tables/${id}/replica`, page(l.entries, head));
      const refused = await headUnmoved(relay, id, async () =>
        relay.request("POST", `/tables/${id}/custody`, await custodyRequest(k, head, ["tao"])),
      );
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: "E_FORBIDDEN", details: { needed: 2, signed: ["tao"] } });
      expect((await relay.say(id, k.botJenny, { seat: "bot-jenny", kind: "say", body: "con" })).body.error.code).toBe(
        "E_MIRROR",
      );
    });

    it("refuses a signature that does not verify (E_BAD_SIGNATURE), and a name that is no owner (E_NOT_OWNER)", async () => {
      const id = "custody-bad-signature";
      const { k, l } = await elsewhere(id);
      const head = await l.head();
      await relay.request("POST", `/tables/${id}/replica`, page(l.entries, head));
      const request = await custodyRequest(k, head, ["tao", "jenny"]);
      const swapped = { ...request, owners: [request.owners[0]!, { owner: "jenny", sig: request.owners[0]!.sig }] };
      expect((await relay.request("POST", `/tables/${id}/custody`, swapped)).body.error.code).toBe("E_BAD_SIGNATURE");
      const stranger = { ...request, owners: [...request.owners, { owner: "mallory", sig: request.owners[0]!.sig }] };
      expect((await relay.request("POST", `/tables/${id}/custody`, stranger)).body.error.code).toBe("E_NOT_OWNER");
    });

    it("refuses a statement for another relay's key, or for a chain that is not this mirror's tip", async () => {
      const id = "custody-wrong-chain";
      const { k, l } = await elsewhere(id);
      const head = await l.head();
      await relay.request("POST", `/tables/${id}/replica`, page(l.entries, head));
      const elsewhereKey = (await keyOf("relay-third")).publicKeyText;
      const statement = custodyStatementFor(head, elsewhereKey);
      const toOther = {
        statement,
        owners: await Promise.all(
          (["tao", "jenny"] as const).map(async (o) => ({
            owner: o,
            sig: (await signCustody(k[o], o, statement)).sig,
          })),
        ),
      };
      expect((await relay.request("POST", `/tables/${id}/custody`, toOther)).body.error.code).toBe("E_NOT_ALLOWED");
      const older = await custodyRequest(k, { ...head, seq: head.seq - 1, link: l.entries[head.seq - 2]!.link }, [
        "tao",
        "jenny",
      ]);
      expect((await relay.request("POST", `/tables/${id}/custody`, older)).body.error.code).toBe("E_NOT_ALLOWED");
    });
  });

  it("refuses custody of a table this relay already holds (E_NOT_ALLOWED)", async () => {
    const id = "custody-own-table";
    const k = await cast();
    await relay.create(k.ops, "ops", debateConfig(k, { id }));
    const head = (await relay.request("GET", `/tables/${id}/head`)).body as SignedHead;
    const refused = await relay.request(
      "POST",
      `/tables/${id}/custody`,
      await custodyRequest(k, head, ["tao", "jenny"]),
    );
    expect(refused.body.error.code).toBe("E_NOT_ALLOWED");
  });
});

describe("an export of a long table", () => {
  it("carries this relay's head after each run of export_head_bytes, so it can be fed to a replica page by page", async () => {
    const id = "custody-long-export";
    const k = await cast();
    await relay.create(
      k.ops,
      "ops",
      debateConfig(k, { id, topology: { kind: "open" }, termination: { any: [{ max_entries: 500 }] } }),
    );
    await relay.join(id, k.tao, "tao", "bot-tao", k.botTao);
    await relay.join(id, k.jenny, "jenny", "bot-jenny", k.botJenny);
    for (let i = 0; i < 80; i += 1) {
      const [key, seat] = i % 2 ? [k.botJenny, "bot-jenny"] : [k.botTao, "bot-tao"];
      expect((await relay.say(id, key, { seat, kind: "say", body: `${i} `.padEnd(8000, "x") })).status).toBe(201);
    }
    const text = (await relay.read(id, `/tables/${id}/export`, k.ops, { owner: "ops" })).body as string;
    const parsed = parseExport(text);
    if (!parsed.ok) throw new Error(parsed.reason);
    const points = exportHeadPoints(parsed.view.items as Entry[], new Map());
    expect(points.length).toBeGreaterThanOrEqual(2);
    expect(parsed.view.heads.map((h) => h.seq)).toEqual([...points.map((p) => p.seq), parsed.view.items.length]);
    expect((await verifyExport(text, { relayKey: await relayKey() })).verdict).toBe("CLEAN");
  });
});

describe("when a replica page is larger than replica_page_bytes", () => {
  it("refuses it at the route (E_TOO_LARGE, 413) and creates nothing", async () => {
    const id = "replica-too-large";
    const { l } = await elsewhere(id);
    const head = await l.head();
    const padded = { ...page(l.entries, head), originals: [{ seq: 1, body: "x".repeat(LIMITS.replica_page_bytes) }] };
    const refused = await relay.request("POST", `/tables/${id}/replica`, padded);
    expect(refused.status).toBe(413);
    expect(refused.body.error.code).toBe("E_TOO_LARGE");
    expect((await relay.request("GET", `/tables/${id}/replica`)).status).toBe(404);
  });
});
