/**
 * A seat's live transcript (src/owner/live-transcript.ts, decision 0495): kept from its own socket,
 * verified as an export is (signatures, nonces, the policy replayed), never handed out short of the
 * head its welcome named or of the seat's own last write, REFUTED from an entry that does not
 * verify even when the relay chained and signed it; and a guarded seat that keeps one writes over
 * its socket and reads no export.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { HttpClient, TableClient, type FetchLike, type WireConnect } from "../../../src/client/index.js";
import { GuardedSeat, LiveTranscript } from "../../../src/owner/index.js";
import { nodeEd25519 } from "../../../src/client/node-ed25519.js";
import { nodeSha256 } from "../../../src/client/node-sha256.js";
import {
  canonicalize,
  chainEntry,
  entryChecker,
  signHead,
  type Entry,
  type EntryChecker,
  type HashFunction,
  type SignedHead,
} from "../../../src/protocol/index.js";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import { mandate, strollerRoom } from "../../support/room-client.js";
import { twd } from "../../support/room-fixture.js";
import { cast, keyOf, seatedDebate, type Cast, type MemoryLedger } from "../../support/table-fixture.js";

let relay: LocalRelay;
beforeAll(async () => {
  relay = await sharedRelay();
}, 60_000);

/**
 * A relay that is only a socket: it challenges, welcomes the seat at `head`, then pushes `entries`
 * from the seat's cursor on, with `head`, after `delayMs` (the welcome's head reaches the client
 * before the entries it covers).
 */
function socketOnly(table: string, entries: readonly Entry[], head: SignedHead, delayMs = 0): WireConnect {
  return async (_url, handlers) => {
    queueMicrotask(() => handlers.onMessage(JSON.stringify({ type: "challenge", table, challenge: "live-test" })));
    return {
      send(text) {
        const frame = JSON.parse(text) as { type: string; seat?: string; cursor?: number };
        if (frame.type !== "auth") return;
        handlers.onMessage(JSON.stringify({ type: "welcome", seat: frame.seat, cursor: frame.cursor, head }));
        setTimeout(
          () => handlers.onMessage(JSON.stringify({ type: "entries", items: entries.slice(frame.cursor), head })),
          delayMs,
        );
      },
      close() {},
    };
  };
}

/** The debate ledger (opened, three joins, bot-tao's say and what it causes) under a test relay key, and the cast. */
async function debate(): Promise<{
  k: Cast;
  l: MemoryLedger;
  relayKey: string;
  head: SignedHead;
  sign: (table: string, seq: number, link: string) => Promise<SignedHead>;
}> {
  const k = await cast();
  const relaySigner = await keyOf("relay:live-transcript");
  const l = await seatedDebate(k, relaySigner);
  return {
    k,
    l,
    relayKey: relaySigner.publicKeyText,
    head: await l.head(),
    sign: (table, seq, link) => signHead(relaySigner, { table, seq, link }),
  };
}

/** A live transcript of the judge's seat over `connect`, its client pinned to `relayKey`. */
async function liveOver(table: string, relayKey: string, k: Cast, connect: WireConnect): Promise<LiveTranscript> {
  const client = await TableClient.open({ http: new HttpClient({ url: "http://relay.invalid" }), table, relayKey });
  return LiveTranscript.open({ client, seat: "judge", signer: k.judge, connect });
}

describe("a live transcript", () => {
  it("holds the ledger up to the head its welcome named, CLEAN, folded as the ledger folds", async () => {
    const { k, l, relayKey, head } = await debate();
    const live = await liveOver(head.table, relayKey, k, socketOnly(head.table, l.entries, head, 30));
    try {
      const transcript = await live.transcript();
      expect(transcript.report.verdict).toBe("CLEAN");
      expect(transcript.entries.map((e) => e.seq)).toEqual(l.entries.map((e) => e.seq));
      expect(canonicalize(transcript.state)).toBe(canonicalize(l.state));
    } finally {
      live.close();
    }
  });

  it("checks every arrived entry with the checker and links' SHA-256 it is given (Node's native ones here), reaching the same state", async () => {
    const { k, l, relayKey, head } = await debate();
    const checked: number[] = [];
    const native = entryChecker(nodeSha256, nodeEd25519);
    const checker: EntryChecker = (entries, texts) => {
      checked.push(...entries.map((e) => e.seq));
      return native(entries, texts);
    };
    let hashed = 0;
    const sha256: HashFunction = (bytes) => ((hashed += 1), nodeSha256(bytes));
    const client = await TableClient.open({
      http: new HttpClient({ url: "http://relay.invalid" }),
      table: head.table,
      relayKey,
    });
    const live = await LiveTranscript.open({
      client,
      seat: "judge",
      signer: k.judge,
      connect: socketOnly(head.table, l.entries, head),
      checker,
      sha256,
    });
    try {
      const transcript = await live.transcript();
      expect(transcript.report.verdict).toBe("CLEAN");
      expect(checked).toEqual(l.entries.map((e) => e.seq));
      expect(hashed).toBeGreaterThanOrEqual(l.entries.length);
      expect(canonicalize(transcript.state)).toBe(canonicalize(l.state));
    } finally {
      live.close();
    }
  });

  describe("when the relay chained and signed an entry whose seat signature does not verify", () => {
    it("is REFUTED from that entry, with no state to act on", async () => {
      const { k, l, relayKey, sign } = await debate();
      const at = l.entries.findIndex((e) => e.kind === "say");
      const { leaf: _leaf, link: _link, ...say } = l.entries[at]!;
      const forged = chainEntry({ ...say, body: "ship #460 first" } as typeof say, l.entries[at - 1]!.link);
      const entries = [...l.entries.slice(0, at), forged];
      const head = await sign(forged.table, forged.seq, forged.link);
      const live = await liveOver(head.table, relayKey, k, socketOnly(head.table, entries, head));
      try {
        const transcript = await live.transcript();
        expect(transcript.report.verdict).toBe("REFUTED");
        expect(transcript.report.refuted?.seq).toBe(forged.seq);
        expect(transcript.state).toBeNull();
      } finally {
        live.close();
      }
    });
  });

  describe("when its socket was closed", () => {
    it("rejects a wait for an entry that never came with E_NETWORK", async () => {
      const { k, l, relayKey, head } = await debate();
      const live = await liveOver(head.table, relayKey, k, socketOnly(head.table, l.entries, head));
      live.close();
      await expect(live.after(l.entries.length)).rejects.toMatchObject({ code: "E_NETWORK" });
    });
  });
});

describe("a guarded seat with a live transcript", () => {
  it("writes over its socket and reads no export, and its write is in the transcript it keeps", async () => {
    const requests: string[] = [];
    const counting: FetchLike = (input, init) => {
      requests.push(`${init?.method ?? "GET"} ${new URL(input).pathname}`);
      return fetch(input, init);
    };
    const { ben, sara } = await strollerRoom(relay.url, { fetch: counting });
    await mandate(ben, { money: { currency: "TWD", cap: 300000 } });
    const live = await LiveTranscript.open({ client: ben.client, seat: ben.seat, signer: await keyOf("seat:ben-bot") });
    try {
      const guard = new GuardedSeat({
        client: ben.client,
        seat: ben.seat,
        signer: await keyOf("seat:ben-bot"),
        home: ben.home,
        live,
      });
      requests.length = 0;
      const sent = await guard.send({ kind: "offer", terms: twd(120000) });
      expect(requests).toEqual([]);
      expect((await live.transcript()).entries.at(-1)).toMatchObject({ seq: sent.seq, kind: "offer", seat: ben.seat });
      expect((await sara.guard.transcript()).entries.find((e) => e.seq === sent.seq)).toMatchObject({
        kind: "offer",
        seat: ben.seat,
      });
    } finally {
      live.close();
    }
  });
});
