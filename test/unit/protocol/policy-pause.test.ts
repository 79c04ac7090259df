/** Pausing and resuming (docs/SPEC.md §5.5): owner-signed or relay-attested controls, E_PAUSED while paused, replay. */
import { beforeEach, describe, expect, it } from "vitest";
import {
  controlDraft,
  fold,
  statementOf,
  verifyExport,
  verifyStatement,
  type ControlDraft,
  type EntryDraft,
} from "../../../src/protocol/index.js";
import { signControl } from "../../../src/client/owner-requests.js";
import { cast, nonceOf } from "../../support/table-fixture.js";
import { openConfig, refusal, TestTable } from "./fixtures.js";

let t: TestTable;
beforeEach(async () => {
  const k = await cast();
  t = await TestTable.open(openConfig(k), undefined, k);
});

/** An owner-signed control draft, as the relay builds it from a signed request. */
async function signed(owner: "tao" | "jenny" | "ops", action: "pause" | "resume", nonce = nonceOf(`${owner}:${action}:${t.state.seq}`)) {
  const request = await signControl(t.ownerKey(owner), { table: t.state.table, owner, action, nonce });
  return controlDraft(t.state, { owner, action, via: "owner", nonce, sig: request.sig });
}

/** A relay-attested control draft, as a chat command produces it. */
function attested(owner: string, action: "pause" | "resume", via: "telegram" | "line" | "discord" = "telegram"): ControlDraft {
  return controlDraft(t.state, { owner, action, via, nonce: nonceOf(`${owner}:${action}:${via}:${t.state.seq}`) });
}

describe("pausing a table", () => {
  it("appends an owner-signed table_paused whose signature verifies offline", async () => {
    const [entry] = t.l.append(await signed("tao", "pause"));
    expect(entry).toMatchObject({ kind: "system", subkind: "table_paused", data: { owner: "tao", via: "owner" }, author: { key: t.k.tao.publicKeyText } });
    const recorded = statementOf(entry as EntryDraft)!;
    expect(recorded.purpose).toBe("owner");
    expect(await verifyStatement(recorded.key, recorded.purpose, recorded.statement, recorded.sig)).toBe(true);
    expect(t.state.paused).toEqual({ seq: entry!.seq, owner: "tao", via: "owner" });
  });

  it("appends a relay-attested pause from a chat app with no author", () => {
    const [entry] = t.l.append(attested("jenny", "pause", "line"));
    expect(entry).toMatchObject({ subkind: "table_paused", author: null, data: { owner: "jenny", via: "line" } });
    expect(statementOf(entry as EntryDraft)).toBeNull();
  });

  it("refuses every authored entry with E_PAUSED until resumed, then accepts again", async () => {
    t.l.append(attested("tao", "pause"));
    const error = await refusal(() => t.say("x"));
    expect(error.code).toBe("E_PAUSED");
    expect(error.details).toMatchObject({ paused_at: t.state.seq });
    t.l.append(attested("tao", "resume"));
    expect(t.state.paused).toBeNull();
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
    t.l.append(attested("jenny", "resume", "discord"));
    await t.say("y");
    expect(fold(t.l.entries)).toEqual(t.state);
    const report = await verifyExport(await t.exportText(), { relayKey: t.k.relay.publicKeyText });
    expect(report.verdict).toBe("CLEAN");
  });
});

describe("when a control is not allowed", () => {
  it("refuses an owner with no seat at the table", async () => {
    expect((await refusal(() => t.l.append(attested("ops", "pause")))).code).toBe("E_FORBIDDEN");
  });

  it("refuses a name that is not an owner", async () => {
    expect((await refusal(() => attested("mallory", "pause"))).code).toBe("E_NOT_OWNER");
    expect((await refusal(() => attested("constructor", "pause"))).code).toBe("E_NOT_OWNER");
  });

  it("refuses pausing a paused table and resuming a running one", async () => {
    expect((await refusal(() => t.l.append(attested("tao", "resume")))).code).toBe("E_NOT_ALLOWED");
    t.l.append(attested("tao", "pause"));
    expect((await refusal(() => t.l.append(attested("jenny", "pause")))).code).toBe("E_NOT_ALLOWED");
  });

  it("refuses an owner-signed control whose key is another owner's", async () => {
    const draft = await signed("tao", "pause");
    const forged = { ...draft, author: { ...draft.author!, key: t.k.jenny.publicKeyText } };
    expect((await refusal(() => t.l.append(forged))).code).toBe("E_BAD_SIGNATURE");
  });

  it("refuses a relay-attested control that claims to be owner-signed, and a signed one that claims a chat app", async () => {
    const draft = attested("tao", "pause");
    expect((await refusal(() => t.l.append({ ...draft, data: { ...draft.data, via: "owner" } }))).code).toBe("E_SCHEMA");
    const sig = await signed("tao", "pause");
    expect((await refusal(() => t.l.append({ ...sig, data: { ...sig.data, via: "telegram" } }))).code).toBe("E_SCHEMA");
  });

  it("refuses a control on a closed table", async () => {
    const k = await cast();
    t = await TestTable.open(openConfig(k, { termination: { any: [{ max_entries: 1 }] } }), undefined, k);
    await t.say("x");
    expect((await refusal(() => t.l.append(attested("tao", "pause")))).code).toBe("E_CLOSED");
  });
});

describe("when a verifier replays a ledger with controls", () => {
  it("refutes a say the relay accepted while the table was paused", async () => {
    t.l.append(attested("tao", "pause"));
    const paused = t.state.paused;
    // A lying relay: drop the pause from the state and append a say anyway.
    t.l.state = { ...t.state, paused: null };
    await t.say("x");
    expect(paused).not.toBeNull();
    const report = await verifyExport(await t.exportText(), { relayKey: t.k.relay.publicKeyText });
    expect(report.verdict).toBe("REFUTED");
    expect(report.refuted).toMatchObject({ seq: t.state.seq, reason: expect.stringContaining("E_PAUSED") });
  });

  it("refutes a replayed control nonce", async () => {
    const draft = await signed("tao", "pause", nonceOf("same"));
    t.l.append(draft);
    t.l.append(attested("tao", "resume"));
    t.l.append(await signed("tao", "pause", nonceOf("same")));
    const report = await verifyExport(await t.exportText(), { relayKey: t.k.relay.publicKeyText });
    expect(report.verdict).toBe("REFUTED");
  });
});
