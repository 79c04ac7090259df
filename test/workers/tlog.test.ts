/**
 * A table as a C2SP transparency log (docs/SPEC.md §12): its checkpoint is a note the relay key
 * signs over the root of its entries' leaves, its tiles are tlog-tiles' bytes (full ones cacheable
 * for good), both identical after an eviction and after an upgrade from before the tiles were
 * stored; a private table's tiles need a signed read; bad paths get clear codes.
 */
import { SELF, env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import {
  fromBase64url,
  fromHex,
  signHttpAuth,
  toHex,
  type Entry,
  type Principal,
  type Signer,
} from "../../src/protocol/index.js";
import { leafData } from "../../src/protocol/ledger/chain.js";
import { checkpointRoot, parseCheckpoint } from "../../src/protocol/tlog/checkpoint.js";
import { leafHash, rootOfLeafHashes } from "../../src/protocol/tlog/merkle.js";
import { ed25519NoteVerifier, openNote } from "../../src/protocol/tlog/note.js";
import { memoryHashSource } from "../../src/protocol/tlog/proofs.js";
import { decodeEntryBundle, tileBytes } from "../../src/protocol/tlog/tiles.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { RelayHttp } from "../support/relay-http.js";
import { seatedDebate } from "../support/seated.js";
import type { Cast } from "../support/table-fixture.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
const stubOf = (id: string) => env.TABLES.getByName(id);

async function raw(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; bytes: Uint8Array; text: string; headers: Headers }> {
  const res = await SELF.fetch(`https://relay.test${path}`, { headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, bytes, text: new TextDecoder().decode(bytes), headers: res.headers };
}

async function signedRaw(table: string, path: string, signer: Signer, as: Principal) {
  return raw(path, { authorization: await signHttpAuth(signer, { table, as, method: "GET", path, now: Date.now() }) });
}

async function entriesOf(id: string): Promise<Entry[]> {
  return runInDurableObject(stubOf(id), (instance: TableDO) => instance.table.ledger.all());
}

async function grow(id: string, k: Cast, says: number): Promise<void> {
  for (let i = 0; i < says; i++)
    expect((await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: `turn ${i}` })).status).toBe(201);
}

const BIG = "tlog-public";
let big: Cast;
let relayKey: Uint8Array;

beforeAll(async () => {
  relayKey = fromBase64url((await relay.request("GET", "/.well-known/trestle.json")).body.relay_key as string);
  big = await seatedDebate(relay, BIG, {
    public: true,
    topology: { kind: "open" },
    termination: { any: [{ max_entries: 1000 }] },
  });
  await grow(BIG, big, 254);
}, 120_000);

/** Every tile a reader of the 260-odd entry table fetches, as bytes. */
async function tilesOf(id: string, size: number): Promise<string[]> {
  const paths = ["tile/0/000", `tile/0/001.p/${size - 256}`, "tile/1/000.p/1", "tile/0/000.p/7"];
  return Promise.all(paths.map(async (p) => toHex((await raw(`/tables/${id}/${p}`)).bytes)));
}

describe("a table's transparency log", () => {
  it("serves a checkpoint the relay key signs, over the root of its entries' leaves, under the origin relay.test/tables/<id>", async () => {
    const reply = await raw(`/tables/${BIG}/checkpoint`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toMatch(/^text\/plain/);
    const origin = `relay.test/tables/${BIG}`;
    const opened = await openNote(reply.text, [ed25519NoteVerifier(origin, relayKey)]);
    const checkpoint = parseCheckpoint(opened.text);
    const entries = await entriesOf(BIG);
    expect(checkpoint).toMatchObject({ origin, size: entries.length });
    expect(toHex(checkpointRoot(checkpoint))).toBe(toHex(rootOfLeafHashes(entries.map((e) => fromHex(e.leaf)))));
  });

  it("serves tlog-tiles' hash tiles, full ones immutable and partial ones briefly cached, the same after an eviction", async () => {
    const entries = await entriesOf(BIG);
    const source = memoryHashSource(entries.map((e) => fromHex(e.leaf)));
    const full = await raw(`/tables/${BIG}/tile/0/000`);
    expect(full.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(toHex(full.bytes)).toBe(toHex(tileBytes({ level: 0, index: 0, width: 256 }, source)));
    const partial = await raw(`/tables/${BIG}/tile/0/001.p/${entries.length - 256}`);
    expect(partial.headers.get("cache-control")).toBe("public, max-age=10");
    expect(toHex(partial.bytes)).toBe(toHex(tileBytes({ level: 0, index: 1, width: entries.length - 256 }, source)));
    const upper = await raw(`/tables/${BIG}/tile/1/000.p/1`);
    expect(toHex(upper.bytes)).toBe(toHex(tileBytes({ level: 1, index: 0, width: 1 }, source)));

    const before = [await tilesOf(BIG, entries.length), (await raw(`/tables/${BIG}/checkpoint`)).text];
    await evictDurableObject(stubOf(BIG));
    expect([await tilesOf(BIG, entries.length), (await raw(`/tables/${BIG}/checkpoint`)).text]).toEqual(before);
  });

  it("serves a public table's entry bundles: each entry is the data its leaf hashes", async () => {
    const entries = await entriesOf(BIG);
    const bundle = decodeEntryBundle((await raw(`/tables/${BIG}/tile/entries/000`)).bytes);
    expect(bundle.map((d) => toHex(leafHash(d)))).toEqual(entries.slice(0, 256).map((e) => e.leaf));
    expect(toHex(bundle[5]!)).toBe(toHex(leafData(entries[5]!)));
  });

  it("rebuilds the same tiles and checkpoint for a table written before the tiles were stored (the upgrade backfills them)", async () => {
    const entries = await entriesOf(BIG);
    const before = [await tilesOf(BIG, entries.length), (await raw(`/tables/${BIG}/checkpoint`)).text];
    await runInDurableObject(stubOf(BIG), (_: TableDO, state) => {
      // As a table from before the tiles, or one whose tlog tables were never made (they are made at their first write, decision 0534).
      state.storage.sql.exec(
        "DROP TABLE tlog_tiles; DROP TABLE IF EXISTS tlog_cosignatures; DELETE FROM meta WHERE key = 'tlog_host';",
      );
    });
    await evictDurableObject(stubOf(BIG));
    expect([await tilesOf(BIG, entries.length), (await raw(`/tables/${BIG}/checkpoint`)).text]).toEqual(before);
    const rows = await runInDurableObject(stubOf(BIG), (_: TableDO, state) =>
      state.storage.sql.exec("SELECT level, idx FROM tlog_tiles").toArray(),
    );
    expect(rows).toEqual([{ level: 0, idx: 0 }]);
    // And it keeps growing from there.
    await grow(BIG, big, 1);
    const size = (await entriesOf(BIG)).length;
    expect(
      parseCheckpoint(
        (
          await openNote((await raw(`/tables/${BIG}/checkpoint`)).text, [
            ed25519NoteVerifier(`relay.test/tables/${BIG}`, relayKey),
          ])
        ).text,
      ).size,
    ).toBe(size);
  });

  describe("when the table is private", () => {
    it("serves its checkpoint to anyone (as its head) but its tiles only to a signed read, and never its entry bundles", async () => {
      const id = "tlog-private";
      const k = await seatedDebate(relay, id);
      expect((await raw(`/tables/${id}/checkpoint`)).status).toBe(200);
      const anonymous = await raw(`/tables/${id}/tile/0/000.p/4`);
      expect(anonymous.status).toBe(401);
      expect(JSON.parse(anonymous.text).error.code).toBe("E_AUTH");
      const signed = await signedRaw(id, `/tables/${id}/tile/0/000.p/4`, k.botTao, { seat: "bot-tao" });
      expect(signed.status).toBe(200);
      expect(signed.headers.get("cache-control")).toBe("private, max-age=10");
      expect(toHex(signed.bytes)).toBe(
        (await entriesOf(id))
          .slice(0, 4)
          .map((e) => e.leaf)
          .join(""),
      );
      const bundle = await signedRaw(id, `/tables/${id}/tile/entries/000.p/4`, k.botTao, { seat: "bot-tao" });
      expect(JSON.parse(bundle.text).error.code).toBe("E_FORBIDDEN");
    });
  });

  describe("when a tile path is bad or past the tree", () => {
    it.each([
      ["tile/0/0", 400, "E_SCHEMA"],
      ["tile/0/000.p/256", 400, "E_SCHEMA"],
      ["tile/0/000.p/0", 400, "E_SCHEMA"],
      ["tile/x/000", 400, "E_SCHEMA"],
      ["tile/0/x000/001", 400, "E_SCHEMA"],
      ["tile/0/002", 404, "E_NOT_FOUND"],
      ["tile/0/001", 404, "E_NOT_FOUND"],
      ["tile/0/001.p/255", 404, "E_NOT_FOUND"],
      ["tile/2/000.p/1", 404, "E_NOT_FOUND"],
      ["tile/entries/005", 404, "E_NOT_FOUND"],
    ])("answers %s with %i %s", async (path, status, code) => {
      const reply = await raw(`/tables/${BIG}/${path}`);
      expect({ status: reply.status, code: JSON.parse(reply.text).error.code }).toEqual({ status, code });
    });

    it("answers a table nobody created with E_TABLE_NOT_FOUND", async () => {
      const reply = await raw("/tables/tlog-nobody/checkpoint");
      expect(JSON.parse(reply.text).error.code).toBe("E_TABLE_NOT_FOUND");
    });
  });
});
