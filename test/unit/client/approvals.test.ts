/** TableClient.approve and tasks against a real relay: the owner signs over the effects it read from the verified ledger. */
import { beforeAll, describe, expect, it } from "vitest";
import { seatDebate, tableClient, uniqueTable } from "../../support/client-table.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";
import { debateConfig, cast } from "../../support/table-fixture.js";

let relay: LocalRelay;
beforeAll(async () => {
  relay = await sharedRelay();
}, 60_000);

/** A debate where jenny approves asynchronously, and the judge's decision carries an effect on jenny's taskboard. */
async function decidedWithEffect() {
  const client = await tableClient(relay.url, uniqueTable("client-approve"));
  const k0 = await cast();
  const base = debateConfig(k0);
  const k = await seatDebate(client, {
    owners: { ...base.owners, jenny: { public_key: k0.jenny.publicKeyText, approvals: "async" } },
    topology: { kind: "debate", pro: "bot-tao", con: "bot-jenny", judge: "judge", rounds: 1 },
  });
  await client.submit(k.botTao, "bot-tao", { kind: "say", body: "pro" });
  await client.submit(k.botJenny, "bot-jenny", { kind: "say", body: "con" });
  const effects = [{ owner: "jenny", resource: "taskboard", action: "reorder", args: { first: "#459" } }];
  const decided = await client.submit(k.judge, "judge", { kind: "decision", body: "ship #459 first", effects });
  return { client, k, decisionSeq: decided.seq };
}

describe("approving a task from the client", () => {
  it("approves jenny's task with her owner key and lists it as approved", async () => {
    const { client, k, decisionSeq } = await decidedWithEffect();
    const before = await client.tasks({ signer: k.jenny, as: { owner: "jenny" } });
    expect(before).toMatchObject([{ id: `${decisionSeq}.jenny`, owner: "jenny", state: "awaiting_approval" }]);
    const answer = await client.approve(k.jenny, "jenny", decisionSeq, "approve");
    expect(answer).toMatchObject({ task: `${decisionSeq}.jenny`, state: "approved" });
    const after = await client.tasks({ signer: k.botTao, as: { seat: "bot-tao" } });
    expect(after[0]).toMatchObject({ state: "approved" });
  });

  it("rejects with the same call and verdict reject", async () => {
    const { client, k, decisionSeq } = await decidedWithEffect();
    expect(await client.approve(k.jenny, "jenny", decisionSeq, "reject")).toMatchObject({ state: "rejected" });
  });

  it("reads the proposal once and signs exactly the entry it read (the one a person is shown)", async () => {
    const { client, k, decisionSeq } = await decidedWithEffect();
    const proposal = await client.proposal(k.jenny, "jenny", decisionSeq);
    expect(proposal).toMatchObject({
      seq: decisionSeq,
      kind: "decision",
      effects: [{ owner: "jenny", action: "reorder" }],
    });
    expect(await client.answer(k.jenny, "jenny", proposal, "approve")).toMatchObject({
      task: `${decisionSeq}.jenny`,
      state: "approved",
    });
  });

  describe("when the owner has no task there", () => {
    it("refuses locally with E_UNKNOWN_TASK before signing anything", async () => {
      const { client, k, decisionSeq } = await decidedWithEffect();
      await expect(client.approve(k.tao, "tao", decisionSeq, "approve")).rejects.toMatchObject({
        code: "E_UNKNOWN_TASK",
      });
      await expect(client.approve(k.jenny, "jenny", 2, "approve")).rejects.toMatchObject({ code: "E_UNKNOWN_TASK" });
      await expect(client.proposal(k.jenny, "jenny", 2)).rejects.toMatchObject({
        code: "E_UNKNOWN_TASK",
        message: expect.stringContaining("not a proposal or decision"),
      });
    });
  });
});
