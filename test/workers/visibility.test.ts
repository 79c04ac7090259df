import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { verifyExport, type Entry, type HiddenEntry } from "../../src/protocol/index.js";
import { RelayHttp } from "../support/relay-http.js";
import { seatedDebate } from "../support/seated.js";
import { TestSocket } from "../support/socket.js";

const fetcher = (url: string, init?: RequestInit) => SELF.fetch(url, init);
const relay = new RelayHttp(fetcher);

/** The judge reads only the debaters' `say` entries. */
const visibility = { judge: { seats: ["bot-tao", "bot-jenny"], kinds: ["say" as const] } };

/** What the judge may read of the debaters: their says, by seq. */
const isDebaterSay = (item: Entry | HiddenEntry) => "kind" in item && item.kind === "say" && item.seat !== "judge";

describe("a judge who reads only the debaters' says", () => {
  it("sees nothing else through its projection, entry pages, socket pushes and export", async () => {
    const id = "vis-judge";
    const k = await seatedDebate(relay, id, { visibility });
    const socket = await TestSocket.open(fetcher, id);
    await socket.auth(id, "judge", k.judge);

    const pro = await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "pro: ship #459" });
    const hand = await relay.say(id, k.botTao, { seat: "bot-tao", kind: "raise_hand", body: "" });
    const con = await relay.say(id, k.botJenny, { seat: "bot-jenny", kind: "say", body: "con: wait for #461" });
    const proposal = await relay.say(id, k.botTao, { seat: "bot-tao", kind: "proposal", body: "ship both together" });
    const pass = await relay.say(id, k.botTao, { seat: "bot-tao", kind: "pass", body: "" });
    const last = await relay.say(id, k.botJenny, { seat: "bot-jenny", kind: "say", body: "con: still no" });
    expect([pro, hand, con, proposal, pass, last].map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const head = last.body.head.seq;
    const says = [pro.body.seq, con.body.seq, last.body.seq];

    const projection = await relay.read(id, `/tables/${id}/projection`, k.judge, { seat: "judge" });
    expect(projection.status).toBe(200);
    expect(projection.body.tail.map((e: { seq: number; kind: string }) => [e.seq, e.kind])).toEqual(
      says.map((s) => [s, "say"]),
    );
    expect(projection.body).toMatchObject({
      cursor: head,
      more: false,
      floor: { holder: "judge", yours: true },
      prefix: { rules: { visibility: visibility.judge } },
    });

    const page = await relay.read(id, `/tables/${id}/entries?from=1&to=${head}`, k.judge, { seat: "judge" });
    const items = page.body.items as (Entry | HiddenEntry)[];
    expect(items.map((i) => i.seq)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    expect(items.filter((i) => "kind" in i).map((i) => i.seq)).toEqual(says);
    expect(items.filter((i) => !("kind" in i)).every((i) => Object.keys(i).sort().join() === "leaf,seq")).toBe(true);

    await socket.until(head);
    const pushed = socket.frames.flatMap((f) => (f.type === "entries" ? f.items : []));
    expect(pushed.map((i) => i.seq)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    expect(pushed.filter((i) => "kind" in i).map((i) => i.seq)).toEqual(says);
    expect(pushed.filter(isDebaterSay)).toHaveLength(3);
    expect(JSON.stringify(pushed)).not.toContain("ship both together");
    socket.ws.close();

    const judgeExport = (await relay.read(id, `/tables/${id}/export`, k.judge, { seat: "judge" })).body as string;
    expect(judgeExport).not.toContain("ship both together");
    const partial = await verifyExport(judgeExport, { relayKey: last.body.head.relay });
    expect(partial).toMatchObject({
      verdict: "INCONCLUSIVE",
      coverage: { entries: head, by_content: 3, by_hash: head - 3, policy_replay: "skipped" },
    });

    const ownerExport = (await relay.read(id, `/tables/${id}/export`, k.ops, { owner: "ops" })).body as string;
    expect(await verifyExport(ownerExport, { relayKey: last.body.head.relay })).toMatchObject({
      verdict: "CLEAN",
      coverage: { by_hash: 0 },
    });
  });

  it("shows the judge its own entries, and a debater everything", async () => {
    const id = "vis-own";
    const k = await seatedDebate(relay, id, { visibility });
    await relay.say(id, k.judge, { seat: "judge", kind: "raise_hand", body: "" });
    const judge = await relay.read(id, `/tables/${id}/projection`, k.judge, { seat: "judge" });
    expect(judge.body.tail.map((e: { kind: string; seat?: string }) => [e.kind, e.seat])).toEqual([
      ["raise_hand", "judge"],
    ]);
    const debater = await relay.read(id, `/tables/${id}/projection`, k.botTao, { seat: "bot-tao" });
    expect(debater.body.tail).toHaveLength(judge.body.cursor);
  });
});
