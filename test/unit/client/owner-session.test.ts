/** TableSocket as an owner session (SPEC §6.3) against a real relay: verified pushes, a live approver, no seat writes. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TableSocket, type TableClient } from "../../../src/client/index.js";
import type { Entry, HiddenEntry, Signer } from "../../../src/protocol/index.js";
import { seatDebate, tableClient, uniqueTable } from "../../support/client-table.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";

let relay: LocalRelay;
beforeAll(async () => {
  relay = await startRelay();
}, 60_000);
afterAll(() => relay?.dispose());

/** An owner session for `owner`, with what it was pushed and a promise for reaching a seq. */
function ownerSocket(client: TableClient, owner: string, signer: Signer) {
  const seen: (Entry | HiddenEntry)[] = [];
  const waiters: { seq: number; resolve(): void }[] = [];
  const onEntries = (items: (Entry | HiddenEntry)[]) => {
    seen.push(...items);
    for (const w of waiters.filter((w) => seen.some((e) => e.seq >= w.seq))) w.resolve();
  };
  const socket = new TableSocket({ url: client.http.socketUrl(client.table), table: client.table, owner, signer, tracker: client.tracker, handlers: { onEntries } });
  const until = (seq: number) => (seen.some((e) => e.seq >= seq) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ seq, resolve })));
  return { socket, seen, until };
}

const EFFECT = { owner: "jenny", resource: "taskboard", action: "reorder", args: { first: "#461" } };

describe("an owner session", () => {
  it("is welcomed with the owner key, gets every entry chain-verified, and makes its owner a live approver", async () => {
    const client = await tableClient(relay.url, uniqueTable("owner-session"));
    const k = await seatDebate(client, { topology: { kind: "debate", pro: "bot-tao", con: "bot-jenny", judge: "judge", rounds: 1 } });
    await client.submit(k.botTao, "bot-tao", { kind: "say", body: "pro" });
    await client.submit(k.botJenny, "bot-jenny", { kind: "say", body: "con" });
    await expect(client.submit(k.judge, "judge", { kind: "decision", body: "#461 first", effects: [EFFECT] })).rejects.toMatchObject({ code: "E_NO_APPROVER" });

    const { socket, seen, until } = ownerSocket(client, "jenny", k.jenny);
    await socket.start();
    const decided = await client.submit(k.judge, "judge", { kind: "decision", body: "#461 first", effects: [EFFECT] });
    await until(decided.seq);
    expect(seen.map((e) => e.seq)).toEqual(Array.from({ length: seen.length }, (_, i) => i + 1));
    socket.close();
    expect(await socket.ended).toEqual({ reason: "closed" });
  });

  describe("when it is asked to write as a seat", () => {
    it("refuses with E_FORBIDDEN before sending anything", async () => {
      const client = await tableClient(relay.url, uniqueTable("owner-session-write"));
      const k = await seatDebate(client);
      const { socket } = ownerSocket(client, "tao", k.tao);
      await socket.start();
      await expect(socket.submit({ kind: "say", body: "hi" })).rejects.toMatchObject({ code: "E_FORBIDDEN" });
      socket.close();
    });
  });

  describe("when the key is not that owner's", () => {
    it("ends with E_AUTH", async () => {
      const client = await tableClient(relay.url, uniqueTable("owner-session-auth"));
      const k = await seatDebate(client);
      const { socket } = ownerSocket(client, "tao", k.jenny);
      await expect(socket.start()).rejects.toMatchObject({ code: "E_AUTH" });
      expect(await socket.ended).toMatchObject({ reason: "error", error: { code: "E_AUTH" } });
    });
  });
});
