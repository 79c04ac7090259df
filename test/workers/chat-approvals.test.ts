/**
 * Chat approvals end to end (docs/SPEC.md §5.6, §11.6): a proposal waits for jenny, the relay sends
 * her bound chats the request with buttons, and a tap (signed exactly as Telegram, LINE and
 * Discord sign webhooks) becomes a relay-attested approval only where her chat_approve rules,
 * which she signed, cover every effect. Everything else is answered with how to sign, and changes
 * nothing. The export of a chat-approved task verifies CLEAN.
 */
import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { TableDO } from "../../durable-objects/table/table.js";
import { canonicalize, verifyExport } from "../../src/protocol/index.js";
import {
  buttonData,
  drain,
  postDiscord,
  postLine,
  postTelegram,
  requests,
  tapVia,
  telegramTap,
  discordButton,
  linePostback,
} from "../support/chat-driver.js";
import {
  accountsFrom,
  bound,
  CARD,
  DELETE,
  entries,
  head,
  MERGE,
  proposed,
  relay,
  room,
  settle,
  taskState,
} from "../support/chat-room.js";
import { headUnmoved } from "../support/relay-http.js";
import { keyOf } from "../support/table-fixture.js";

describe("a tap on Approve where jenny's chat_approve rules cover the task", () => {
  it.each(accountsFrom(96001))(
    "approves it from %s as a relay-attested entry, and the export verifies CLEAN",
    async (platform, account, chat) => {
      const id = `chat-approve-${platform}`;
      const k = await room(id);
      await bound(platform, k.jenny, account, chat);
      const task = await proposed(id, k);
      const data = await buttonData(platform, chat, "approve");
      expect(data).toMatch(/^t1\.a\.[A-Za-z0-9_-]{16}$/);

      const tapped = await tapVia(platform, account, data, chat);
      expect(tapped.status).toBe(200);
      expect(tapped.text).toContain(`Approved task ${task}`);

      const last = (await entries(id, k)).slice(-2);
      expect(last[0]).toMatchObject({
        kind: "approval",
        owner: "jenny",
        task,
        verdict: "approve",
        via: platform,
        author: null,
      });
      expect(last[1]).toMatchObject({
        kind: "system",
        subkind: "task_state",
        data: { task, state: "approved", reason: "approval" },
      });
      expect(await taskState(id, k, task)).toBe("approved");

      const exported = await relay.read(id, `/tables/${id}/export`, k.ops, { owner: "ops" });
      const report = await verifyExport(exported.body, { relayKey: (await head(id)).relay });
      expect(report, JSON.stringify(report)).toMatchObject({ verdict: "CLEAN", coverage: { policy_replay: "full" } });
    },
  );

  it("says so on the request, and tells every channel of jenny's of the tap afterwards, each in its language", async () => {
    const id = "chat-approve-record";
    const k = await room(id);
    await bound("telegram", k.jenny, "96010");
    await bound("line", k.jenny, "U96011", "U96011", "ja");
    const task = await proposed(id, k);
    const request = (await requests('"chat_id":"96010"')).at(-1)!.body as { text: string };
    expect(request.text).toContain("jenny: create_card on taskboard");
    expect(request.text).toContain("Approve here is recorded for you, relay-attested");

    expect((await tapVia("telegram", "96010", await buttonData("telegram", "96010", "approve"))).text).toContain(
      "relay-attested via Telegram",
    );
    await settle(id);
    await drain(k.jenny.publicKeyText);
    const told = JSON.stringify((await requests('"to":"U96011"')).at(-1)!.body);
    expect(told).toContain(`タスク ${task} が Telegram でのタップにより承認されました`);
    expect(told).toContain("あなたの署名ではありません");
  });

  it("records a replayed callback once: the same update again gets an empty answer and appends nothing", async () => {
    const id = "chat-approve-replay";
    const k = await room(id);
    await bound("telegram", k.jenny, "96020");
    await proposed(id, k);
    const update = telegramTap(96020, await buttonData("telegram", "96020", "approve"));
    expect((await postTelegram(update)).body.text).toContain("Approved task");
    expect((await headUnmoved(relay, id, () => postTelegram(update))).body).toEqual({
      method: "answerCallbackQuery",
      callback_query_id: update.callback_query.id,
    });

    await bound("discord", k.jenny, "96021", "996021");
    await proposed(id, k);
    const press = discordButton("96021", "996021", await buttonData("discord", "996021", "approve"));
    expect((await postDiscord(press)).body.data.content).toContain("Approved task");
    expect((await headUnmoved(relay, id, () => postDiscord(press))).body.data.content).toBe("…");
  });

  it("records a LINE postback LINE redelivers (same webhookEventId) once, and appends nothing for the redelivery", async () => {
    const id = "chat-approve-line-replay";
    const k = await room(id);
    await bound("line", k.jenny, "U96023");
    const task = await proposed(id, k);
    const event = linePostback("U96023", await buttonData("line", "U96023", "approve"));
    expect((await postLine([event])).status).toBe(200);
    expect(await taskState(id, k, task)).toBe("approved");
    expect(
      (await headUnmoved(relay, id, () => postLine([{ ...event, deliveryContext: { isRedelivery: true } }]))).status,
    ).toBe(200);
    expect((await entries(id, k)).filter((e) => e.kind === "approval")).toHaveLength(1);
  });

  it("answers a tap on a task already approved, or already rejected, with its state and appends nothing", async () => {
    const id = "chat-approve-decided";
    const k = await room(id);
    await bound("telegram", k.jenny, "96030");
    const first = await proposed(id, k);
    const approve = await buttonData("telegram", "96030", "approve");
    await tapVia("telegram", "96030", approve);
    expect((await headUnmoved(relay, id, () => tapVia("telegram", "96030", approve))).text).toBe(
      `Task ${first} is already approved; nothing was recorded.`,
    );

    const second = await proposed(id, k);
    await tapVia("telegram", "96030", await buttonData("telegram", "96030", "reject"));
    expect(await taskState(id, k, second)).toBe("rejected");
    const approveSecond = await buttonData("telegram", "96030", "approve");
    expect((await headUnmoved(relay, id, () => tapVia("telegram", "96030", approveSecond))).text).toBe(
      `Task ${second} is already rejected; nothing was recorded.`,
    );
  });
});

describe("when a tap cannot approve", () => {
  it.each([
    [
      "jenny lists no chat_approve rules",
      "chat-refuse-norules",
      "96041",
      { rules: null },
      [CARD],
      "Your table config lists no chat_approve rules.",
    ],
    [
      "only the creator wrote jenny's rules",
      "chat-refuse-unsigned",
      "96042",
      { endorsed: false },
      [CARD],
      "count only once you signed the table's config",
    ],
    [
      "the rules do not cover every effect",
      "chat-refuse-uncovered",
      "96043",
      {},
      [CARD, DELETE],
      "do not cover every effect of this task",
    ],
  ] as const)("answers how to sign when %s, and appends nothing", async (_what, id, account, options, effects, why) => {
    const k = await room(id, options);
    await bound("telegram", k.jenny, account);
    const task = await proposed(id, k, [...effects]);
    const approve = await buttonData("telegram", account, "approve");
    const tapped = await headUnmoved(relay, id, () => tapVia("telegram", account, approve));
    expect(tapped.text).toContain(
      `Needs your signature: trestle approve ${task} --table ${id} on your own machine (or the MCP approve tool).`,
    );
    expect(tapped.text).toContain(why);
    expect(tapped.text.length).toBeLessThanOrEqual(200);
    expect(await taskState(id, k, task)).toBe("awaiting_approval");
  });

  it("says so on the request itself, naming the command that signs", async () => {
    const id = "chat-refuse-render";
    const k = await room(id, { rules: null });
    await bound("discord", k.jenny, "96050", "996050");
    const task = await proposed(id, k);
    const sent = (await requests("/discord/channels/996050/messages")).at(-1)!.body as { content: string };
    expect(sent.content).toContain(
      `Approving needs your signature: trestle approve ${task} \\-\\-table ${id.replace(/-/g, "\\-")}`,
    );
  });

  it("answers a tap from an account bound to another owner as unknown or expired for it, and one from an unbound account with how to bind", async () => {
    const id = "chat-refuse-account";
    const k = await room(id);
    await bound("telegram", k.jenny, "96060");
    await bound("telegram", k.tao, "96061");
    await proposed(id, k);
    const data = await buttonData("telegram", "96060", "approve");
    expect((await headUnmoved(relay, id, () => tapVia("telegram", "96061", data))).text).toBe(
      "This button matches no approval request the relay holds for this account: it is unknown or has expired. Nothing was recorded.",
    );
    expect((await headUnmoved(relay, id, () => tapVia("telegram", "96062", data))).text).toContain(
      "not bound to an owner yet",
    );
  });

  it("lets a tap on Reject stand without chat_approve rules: the safe direction", async () => {
    const id = "chat-reject-norules";
    const k = await room(id, { rules: null });
    await bound("line", k.jenny, "U96070");
    const task = await proposed(id, k);
    const tapped = await tapVia("line", "U96070", await buttonData("line", "U96070", "reject"));
    expect(tapped.text).toContain(`Rejected task ${task}`);
    expect((await entries(id, k)).at(-2)).toMatchObject({
      kind: "approval",
      verdict: "reject",
      via: "line",
      author: null,
    });
    expect(await taskState(id, k, task)).toBe("rejected");
  });

  it("approves only jenny's task of a proposal that also touches tao's resources", async () => {
    const id = "chat-approve-split";
    const k = await room(id);
    await bound("telegram", k.jenny, "96080");
    const task = await proposed(id, k, [CARD, MERGE]);
    await tapVia("telegram", "96080", await buttonData("telegram", "96080", "approve"));
    expect(await taskState(id, k, task)).toBe("approved");
    expect(await taskState(id, k, task.replace("jenny", "tao"))).toBe("awaiting_approval");
  });
});

describe("the table's side of a tap", () => {
  const table = (id: string) => env.TABLES.getByName(id);

  it("records one tap once even when the webhook's dedupe has forgotten it: the nonce comes from the event id", async () => {
    const id = "chat-approve-nonce";
    const k = await room(id, { approvals: "async" });
    const task = await proposed(id, k);
    const input = {
      owner_key: k.jenny.publicKeyText,
      task,
      verdict: "approve" as const,
      via: "line" as const,
      event_id: "line:01FORGOTTEN",
    };
    const first = await runInDurableObject(table(id), (t: TableDO) => t.approveAttested(input));
    const second = await headUnmoved(relay, id, () =>
      runInDurableObject(table(id), (t: TableDO) => t.approveAttested(input)),
    );
    expect(first).toMatchObject({ ok: true, value: { task, state: "approved" } });
    expect(second).toEqual(first);
  });

  it("rebuilds which tasks a tap may approve after the table is evicted, and still approves by tap", async () => {
    const id = "chat-approve-evict";
    const k = await room(id, { approvals: "async" });
    const task = await proposed(id, k);
    const before = await runInDurableObject(table(id), (t: TableDO) => canonicalize(t.table.state));
    expect(JSON.parse(before).chat_covered).toEqual({ [task]: true });
    await evictDurableObject(table(id));
    expect(await runInDurableObject(table(id), (t: TableDO) => canonicalize(t.table.state))).toBe(before);
    const input = {
      owner_key: k.jenny.publicKeyText,
      task,
      verdict: "approve" as const,
      via: "discord" as const,
      event_id: "discord:123",
    };
    expect(await runInDurableObject(table(id), (t: TableDO) => t.approveAttested(input))).toMatchObject({
      ok: true,
      value: { state: "approved" },
    });
  });

  it("refuses a tap attested for a key that is not the task owner's (E_FORBIDDEN) and appends nothing", async () => {
    const id = "chat-approve-wrongkey";
    const k = await room(id, { approvals: "async" });
    const task = await proposed(id, k);
    const input = {
      owner_key: k.tao.publicKeyText,
      task,
      verdict: "approve" as const,
      via: "telegram" as const,
      event_id: "telegram:cb:1",
    };
    expect(
      await headUnmoved(relay, id, () => runInDurableObject(table(id), (t: TableDO) => t.approveAttested(input))),
    ).toMatchObject({ ok: false, error: { code: "E_FORBIDDEN" } });
  });
});

describe("when a tap is unsigned or mis-signed", () => {
  it("refuses it with 401 on every platform and appends nothing", async () => {
    const id = "chat-tap-badsig";
    const k = await room(id);
    await bound("telegram", k.jenny, "96090");
    await bound("line", k.jenny, "U96091");
    await bound("discord", k.jenny, "96092", "996092");
    await proposed(id, k);
    const data = await buttonData("telegram", "96090", "approve");
    const before = await head(id);
    expect((await postTelegram(telegramTap(96090, data), "wrong-secret")).status).toBe(401);
    expect((await postTelegram(telegramTap(96090, data), null)).status).toBe(401);
    expect((await postLine([linePostback("U96091", data)], "AAAA")).status).toBe(401);
    expect(
      (await postDiscord(discordButton("96092", "996092", data), { signer: await keyOf("not-discord") })).status,
    ).toBe(401);
    expect(
      (await postDiscord(discordButton("96092", "996092", data), { timestamp: Math.floor(Date.now() / 1000) - 3600 }))
        .status,
    ).toBe(401);
    expect(await head(id)).toEqual(before);
  });
});
