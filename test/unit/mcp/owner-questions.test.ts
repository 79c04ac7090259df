/**
 * An owner answering its seats' questions through its own MCP client (docs/MCP.md, decision 0419):
 * `trestle_owner_questions` puts each open question to the human by elicitation (an enum for
 * choices, a string for free text), signs the accepted answer with the owner key, and leaves a
 * declined one open. In an end-to-end encrypted room the relay holds the question and the answer
 * sealed, and the seat reads plain text.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { ElicitResult } from "@modelcontextprotocol/client";
import { HttpClient, randomNonce } from "../../../src/client/index.js";
import { signQuestion } from "../../../src/protocol/index.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";
import { inProcess, makeHome, textOf, type Elicitor, type Home, type Mcp } from "../../support/mcp.js";
import { uniqueTable } from "../../support/client-table.js";

let relay: LocalRelay;
beforeAll(async () => {
  relay = await sharedRelay();
}, 60_000);

/** Sara's room (e2e or not) with her seat joined; her seat's server, and her owner server answering elicitations with `answer`. */
async function saraRoom(e2e: boolean, answer: (request: Parameters<NonNullable<Elicitor>>[0]) => ElicitResult) {
  const table = uniqueTable("ask-elicit");
  const home = await makeHome(relay.url, "sara", "sara-bot");
  const seat = await inProcess(home.settings);
  expect((await seat.call("trestle_room_create", { table, topic: "A stroller", e2e })).isError).toBeFalsy();
  expect((await seat.call("trestle_join", { table })).isError).toBeFalsy();
  const { seat: _s, seatKeyFile: _k, ...ownerOnly } = home.settings;
  const owner = await inProcess({ ...ownerOnly, table }, answer);
  expect(textOf(await owner.call("trestle_owner_questions", { table }))).toContain("your owner session here is live");
  return { table, home, seat, owner };
}

/** The questions of sara's seats at `table` as the relay keeps them, read with her owner key. */
async function kept(home: Home, table: string) {
  return (await new HttpClient({ url: relay.url }).questions(table, { signer: home.owner, as: { owner: "sara" } }))
    .questions;
}

async function closeAll(...servers: Mcp[]) {
  await Promise.all(servers.map((s) => s.close()));
}

describe("an owner answering its seats' questions through elicitation", { timeout: 60_000 }, () => {
  it("offers the choices as an enum, signs the pick, and the seat reads it verified; the relay holds it sealed in an e2e room", async () => {
    const { table, home, seat, owner } = await saraRoom(true, () => ({
      action: "accept",
      content: { answer: "no, hold at 2,900" },
    }));
    const asking = seat.call("trestle_ask_owner", {
      table,
      text: "Accept 2,800 for the stroller?",
      choices: ["yes", "no, hold at 2,900"],
      wait_seconds: 60,
    });
    const put = textOf(await owner.call("trestle_owner_questions", { table, wait_seconds: 60 }));
    expect(put).toContain('answered "no, hold at 2,900" (signed with your owner key)');
    expect(owner.asked[0]!).toMatchObject({
      requestedSchema: {
        properties: { answer: { type: "string", enum: ["yes", "no, hold at 2,900"] } },
        required: ["answer"],
      },
    });
    expect(owner.asked[0]!.message).toContain('"Accept 2,800 for the stroller?"');
    const asked = textOf(await asking);
    expect(asked).toContain("your owner answered (verified: signed with your owner's key)");
    expect(asked).toContain("no, hold at 2,900");

    const [stored] = await kept(home, table);
    expect(stored!.question.text).toMatch(/^e2e1:/);
    expect(stored!.question.choices!.every((c) => c.startsWith("e2e1:"))).toBe(true);
    expect(stored!.answer!.value).toMatch(/^e2e1:/);
    expect(JSON.stringify(stored)).not.toContain("2,900");
    await closeAll(seat, owner);
  });

  it("asks for free text with a string field", async () => {
    const { table, seat, owner } = await saraRoom(false, () => ({
      action: "accept",
      content: { answer: "Saturday morning" },
    }));
    const asking = seat.call("trestle_ask_owner", { table, text: "When can you hand it over?", wait_seconds: 60 });
    expect(textOf(await owner.call("trestle_owner_questions", { table, wait_seconds: 60 }))).toContain(
      'answered "Saturday morning"',
    );
    expect(owner.asked[0]!).toMatchObject({
      requestedSchema: { properties: { answer: { type: "string", minLength: 1 } } },
    });
    expect(JSON.stringify(owner.asked[0]!)).not.toContain('"enum"');
    expect(textOf(await asking)).toContain("Saturday morning");
    await closeAll(seat, owner);
  });

  describe("when the owner declines", () => {
    it("leaves the question open and signs nothing", async () => {
      const { table, home, seat, owner } = await saraRoom(false, () => ({ action: "decline" }));
      const now = Date.now();
      const request = await signQuestion(home.seat, {
        table,
        seat: "sara-bot",
        question: randomNonce(),
        text: "Accept 2,800?",
        choices: ["yes", "no"],
        deadline: now + 60_000,
        ts: now,
      });
      await new HttpClient({ url: relay.url }).askOwner(table, request);
      expect(textOf(await owner.call("trestle_owner_questions", { table }))).toContain(
        `${request.question.question} from sara-bot: left open (you declined)`,
      );
      expect((await kept(home, table)).map((q) => [q.state, q.answer])).toEqual([["open", undefined]]);
      await closeAll(seat, owner);
    });
  });

  describe("when the client cannot elicit", () => {
    it("refuses with E_NOT_CONFIRMED before reading anything", async () => {
      const table = uniqueTable("ask-elicit");
      const home = await makeHome(relay.url, "sara", "sara-bot");
      const owner = await inProcess({ ...home.settings, table });
      const refused = await owner.call("trestle_owner_questions", { table });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('details: {"reason":"no_elicitation"}');
      await owner.close();
    });
  });
});
