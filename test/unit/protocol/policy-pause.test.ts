/**
 * Pauses, one per owner (docs/SPEC.md §5.5): owner-signed or relay-attested, E_PAUSED while any
 * holds, each lifted only by its own owner (a signed one only by a signed resume), and replay.
 */
import { beforeEach, describe, expect, it } from "vitest";
import {
  controlDraft,
  fold,
  pauseHolders,
  statementOf,
  verifyExport,
  verifyStatement,
  type ControlDraft,
  type EntryDraft,
  type TableState,
} from "../../../src/protocol/index.js";
import { signControl } from "../../../src/client/owner-requests.js";
import { RoomLedger } from "../../support/room-fixture.js";
import { cast, nonceOf } from "../../support/table-fixture.js";
import { openConfig, refusal, TestTable } from "./fixtures.js";
import { refused } from "../../support/refused.js";

let t: TestTable;
beforeEach(async () => {
  const k = await cast();
  t = await TestTable.open(openConfig(k), undefined, k);
});

/** An owner-signed control draft, as the relay builds it from a signed request. */
async function signed(
  owner: "tao" | "jenny" | "ops",
  action: "pause" | "resume",
  nonce = nonceOf(`${owner}:${action}:${t.state.seq}`),
) {
  const request = await signControl(t.ownerKey(owner), { table: t.state.table, owner, action, nonce });
  return controlDraft(t.state, { owner, action, via: "owner", nonce, sig: request.sig });
}

/** A relay-attested control draft, as a chat command produces it. */
function attested(
  owner: string,
  action: "pause" | "resume",
  via: "telegram" | "line" | "discord" = "telegram",
): ControlDraft {
  return controlDraft(t.state, { owner, action, via, nonce: nonceOf(`${owner}:${action}:${via}:${t.state.seq}`) });
}

/** The verdict of verifying the whole ledger with the relay key pinned. */
async function verified() {
  return verifyExport(await t.exportText(), { relayKey: t.k.relay.publicKeyText });
}

describe("pausing a table", () => {
  it("appends an owner-signed table_paused whose signature verifies offline", async () => {
    const [entry] = t.l.append(await signed("tao", "pause"));
    expect(entry).toMatchObject({
      kind: "system",
      subkind: "table_paused",
      data: { owner: "tao", via: "owner" },
      author: { key: t.k.tao.publicKeyText },
    });
    const recorded = statementOf(entry as EntryDraft)!;
    expect(recorded.purpose).toBe("owner");
    expect(await verifyStatement(recorded.key, recorded.purpose, recorded.statement, recorded.sig)).toBe(true);
    expect(t.state.pauses).toEqual({ tao: { seq: entry!.seq, via: "owner" } });
  });

  it("appends a relay-attested pause from a chat app with no author", () => {
    const [entry] = t.l.append(attested("jenny", "pause", "line"));
    expect(entry).toMatchObject({ subkind: "table_paused", author: null, data: { owner: "jenny", via: "line" } });
    expect(statementOf(entry as EntryDraft)).toBeNull();
    expect(t.state.pauses).toEqual({ jenny: { seq: entry!.seq, via: "line" } });
  });

  it("refuses every authored entry with E_PAUSED until resumed, then accepts again", async () => {
    t.l.append(attested("tao", "pause"));
    const error = await refused("E_PAUSED", () => t.say("x"), { unmoved: t });
    expect(error.details).toMatchObject({ pauses: [{ owner: "tao", via: "telegram", seq: t.state.seq }] });
    t.l.append(attested("tao", "resume"));
    expect(t.state.pauses).toEqual({});
    await t.say("x");
  });

  it("still seats a joining bot while paused", async () => {
    const k = await cast();
    t = await TestTable.open(openConfig(k), ["x", "y"], k);
    t.l.append(attested("tao", "pause"));
    const joined = await t.join("h");
    expect(joined[0]).toMatchObject({ subkind: "seat_joined" });
  });

  it("folds to the same state the writes produced, and an export with controls verifies CLEAN", async () => {
    t.l.append(await signed("tao", "pause"));
    t.l.append(attested("jenny", "pause", "discord"));
    t.l.append(await signed("tao", "resume"));
    t.l.append(attested("jenny", "resume", "line"));
    await t.say("y");
    expect(fold(t.l.entries)).toEqual(t.state);
    expect((await verified()).verdict).toBe("CLEAN");
  });
});

describe("pauses per owner", () => {
  it("refuses writes while either of two pauses holds, naming both holders, and takes them once both are lifted", async () => {
    const [first] = t.l.append(await signed("tao", "pause"));
    const [second] = t.l.append(attested("jenny", "pause"));
    const both = await refused("E_PAUSED", () => t.say("x"), { unmoved: t });
    expect(both.message).toContain(`tao (owner key, entry ${first!.seq}), jenny (telegram, entry ${second!.seq})`);
    expect(both.details).toMatchObject({
      pauses: [
        { owner: "tao", via: "owner", seq: first!.seq },
        { owner: "jenny", via: "telegram", seq: second!.seq },
      ],
    });

    t.l.append(await signed("tao", "resume"));
    const one = await refused("E_PAUSED", () => t.say("y"), { unmoved: t });
    expect(one.details).toMatchObject({ pauses: [{ owner: "jenny", via: "telegram", seq: second!.seq }] });

    t.l.append(attested("jenny", "resume"));
    expect(pauseHolders(t.state.pauses)).toEqual([]);
    await t.say("x");
  });

  it("lets the owner of a chat-attested pause lift it from another chat app, or by key", async () => {
    t.l.append(attested("jenny", "pause", "telegram"));
    t.l.append(attested("jenny", "resume", "discord"));
    expect(t.state.pauses).toEqual({});
    t.l.append(attested("jenny", "pause", "line"));
    t.l.append(await signed("jenny", "resume"));
    expect(t.state.pauses).toEqual({});
  });

  it("lets an owner whose seat is gone lift their own pause, with no seat needed", async () => {
    const r = await RoomLedger.open({ ben: false });
    await r.admit("ben", "ben-bot");
    const pause = await signControl(r.k.ben, {
      table: r.state.table,
      owner: "ben",
      action: "pause",
      nonce: nonceOf("ben pauses"),
    });
    r.l.append(
      controlDraft(r.state, {
        owner: "ben",
        action: "pause",
        via: "owner",
        nonce: nonceOf("ben pauses"),
        sig: pause.sig,
      }),
    );
    await r.eject("ben-bot");
    expect(r.state.seats["ben-bot"]!.left).not.toBeNull();
    const resume = await signControl(r.k.ben, {
      table: r.state.table,
      owner: "ben",
      action: "resume",
      nonce: nonceOf("ben lifts"),
    });
    const [lifted] = r.l.append(
      controlDraft(r.state, {
        owner: "ben",
        action: "resume",
        via: "owner",
        nonce: nonceOf("ben lifts"),
        sig: resume.sig,
      }),
    );
    expect(lifted).toMatchObject({ subkind: "table_resumed", data: { owner: "ben" } });
    expect(r.state.pauses).toEqual({});
  });
});

describe("when a control is not allowed", () => {
  it("refuses a pause by an owner with no seat at the table", async () => {
    await refused("E_FORBIDDEN", () => t.l.append(attested("ops", "pause")), { unmoved: t });
  });

  it("refuses a name that is not an owner", async () => {
    expect((await refusal(() => attested("mallory", "pause"))).code).toBe("E_NOT_OWNER");
    expect((await refusal(() => attested("constructor", "pause"))).code).toBe("E_NOT_OWNER");
  });

  it("refuses a second pause by the same owner, and resuming a table that is not paused", async () => {
    await refused("E_NOT_ALLOWED", () => t.l.append(attested("tao", "resume")), { unmoved: t });
    t.l.append(attested("tao", "pause"));
    await refused("E_NOT_ALLOWED", () => t.l.append(attested("tao", "pause", "line")), { unmoved: t });
    await refused("E_NOT_ALLOWED", async () => t.l.append(await signed("tao", "pause")), { unmoved: t });
  });

  it("refuses another owner's resume, signed or from chat, naming who holds the pauses", async () => {
    const [paused] = t.l.append(await signed("tao", "pause"));
    const byKey = await refused("E_FORBIDDEN", async () => t.l.append(await signed("jenny", "resume")), { unmoved: t });
    expect(byKey.message).toContain(`paused by tao (owner key, entry ${paused!.seq})`);
    expect(byKey.details).toMatchObject({ pauses: [{ owner: "tao", via: "owner", seq: paused!.seq }] });
    await refused("E_FORBIDDEN", () => t.l.append(attested("jenny", "resume")), { unmoved: t });
    // Also one without a seat, who never paused, and a chat pause's stranger.
    await refused("E_FORBIDDEN", async () => t.l.append(await signed("ops", "resume")), { unmoved: t });
    t.l.append(attested("jenny", "pause"));
    await refused("E_FORBIDDEN", () => t.l.append(attested("ops", "resume", "line")), { unmoved: t });
  });

  it("refuses a chat resume of a pause signed with the owner key, even from that owner (E_NEEDS_SIGNATURE)", async () => {
    const [paused] = t.l.append(await signed("tao", "pause"));
    const error = await refused("E_NEEDS_SIGNATURE", () => t.l.append(attested("tao", "resume")), { unmoved: t });
    expect(error.details).toEqual({ owner: "tao", paused_at: paused!.seq });
    expect(error.message).toContain("signed resume");
    t.l.append(await signed("tao", "resume"));
    expect(t.state.pauses).toEqual({});
  });

  it("refuses an owner-signed control whose key is another owner's", async () => {
    const draft = await signed("tao", "pause");
    const forged = { ...draft, author: { ...draft.author!, key: t.k.jenny.publicKeyText } };
    await refused("E_BAD_SIGNATURE", () => t.l.append(forged), { unmoved: t });
  });

  it("refuses a relay-attested control that claims to be owner-signed, and a signed one that claims a chat app", async () => {
    const draft = attested("tao", "pause");
    await refused("E_SCHEMA", () => t.l.append({ ...draft, data: { ...draft.data, via: "owner" } }), { unmoved: t });
    const sig = await signed("tao", "pause");
    await refused("E_SCHEMA", () => t.l.append({ ...sig, data: { ...sig.data, via: "telegram" } }), { unmoved: t });
  });

  it("refuses a control on a closed table", async () => {
    const k = await cast();
    t = await TestTable.open(openConfig(k, { termination: { any: [{ max_entries: 1 }] } }), undefined, k);
    await t.say("x");
    await refused("E_CLOSED", () => t.l.append(attested("tao", "pause")), { unmoved: t });
  });
});

describe("when a verifier replays a ledger with controls", () => {
  /** A lying relay: the state it judges the next write by has `pauses` instead of the folded ones. */
  function lie(pauses: TableState["pauses"]): void {
    t.l.state = { ...t.state, pauses };
  }

  it("refutes a say the relay accepted while the table was paused", async () => {
    t.l.append(attested("tao", "pause"));
    lie({});
    await t.say("x");
    const report = await verified();
    expect(report.verdict).toBe("REFUTED");
    expect(report.refuted).toMatchObject({ seq: t.state.seq, reason: expect.stringContaining("E_PAUSED") });
  });

  it("refutes a ledger where one owner's resume lifted another owner's pause", async () => {
    const [paused] = t.l.append(await signed("tao", "pause"));
    lie({ jenny: { seq: paused!.seq, via: "owner" } });
    const [lifted] = t.l.append(await signed("jenny", "resume"));
    await t.say("x");
    const report = await verified();
    expect(report.verdict).toBe("REFUTED");
    expect(report.refuted).toMatchObject({ seq: lifted!.seq, reason: expect.stringContaining("E_FORBIDDEN") });
  });

  it("refutes a ledger where a chat resume lifted a pause signed with the owner key", async () => {
    const [paused] = t.l.append(await signed("tao", "pause"));
    lie({ tao: { seq: paused!.seq, via: "telegram" } });
    const [lifted] = t.l.append(attested("tao", "resume"));
    const report = await verified();
    expect(report.verdict).toBe("REFUTED");
    expect(report.refuted).toMatchObject({ seq: lifted!.seq, reason: expect.stringContaining("E_NEEDS_SIGNATURE") });
  });

  it("refutes a replayed control nonce", async () => {
    t.l.append(await signed("tao", "pause", nonceOf("same")));
    t.l.append(await signed("tao", "resume"));
    t.l.append(await signed("tao", "pause", nonceOf("same")));
    expect((await verified()).verdict).toBe("REFUTED");
  });
});
