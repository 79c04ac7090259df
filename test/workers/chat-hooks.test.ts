/**
 * Inbound webhooks (docs/SPEC.md §11.5): each platform's signature, PING/PONG, commands addressed
 * to other bots, replays; and the commands: status, tables, pause/resume, approve/reject taps.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { OwnerDO } from "../../durable-objects/owner/owner.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { unwrap } from "../../durable-objects/result.js";
import { signControl } from "../../src/client/owner-requests.js";
import { approvalRef, encodeCallback } from "../../src/chat/callback.js";
import type { Notification, Signer } from "../../src/protocol/index.js";
import {
  bindVia,
  discordButton,
  discordCommand,
  drain,
  lastWithButtons,
  linePostback,
  lineText,
  ownerClient,
  ownerDO,
  postDiscord,
  postLine,
  postTelegram,
  requests,
  script,
  telegramTap,
  telegramText,
} from "../support/chat-driver.js";
import { limitViolations, visibleText } from "../support/chat-limits.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { castOwners, keyOf, nonceOf } from "../support/table-fixture.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));

type Room = Awaited<ReturnType<typeof room>>;

/** An open room: x (tao), y (jenny), both seated; owners have keys of their own. */
async function room(id: string) {
  const k = {
    tao: await keyOf(`owner:${id}:tao`),
    jenny: await keyOf(`owner:${id}:jenny`),
    ops: await keyOf(`owner:${id}:ops`),
    x: await keyOf(`seat:${id}:x`),
    y: await keyOf(`seat:${id}:y`),
  };
  const config = {
    id,
    topic: "Who pays for the GPUs?",
    owners: castOwners(k),
    seats: { x: { owner: "tao" }, y: { owner: "jenny" } },
    topology: { kind: "open" as const },
    termination: { any: [{ max_entries: 50 }] },
  };
  expect((await relay.create(k.tao, "tao", config)).status).toBe(201);
  await relay.join(id, k.tao, "tao", "x", k.x);
  await relay.join(id, k.jenny, "jenny", "y", k.y);
  await runInDurableObject(env.TABLES.getByName(id), (t: TableDO) => t.table.noticesSettled());
  return k;
}

const approvalEvent = (table: string): Notification => ({
  type: "approval_needed",
  id: `${table}:7:approval_needed`,
  table,
  topic: "Who pays for the GPUs?",
  task: "7.tao",
  proposal_seq: 7,
  proposer: "y",
  effects: [
    { owner: "tao", resource: "repo:github.com/tao/infra", action: "merge", args: { pr: 461, note: "<b>now</b>" } },
  ],
});

async function sendApproval(owner: Signer, table: string) {
  return ownerDO(owner.publicKeyText).notify({ owner_key: owner.publicKeyText, events: [approvalEvent(table)] });
}

describe("when a webhook is unsigned or mis-signed", () => {
  it("refuses Telegram without the secret token, or with a wrong one, with 401 and binds nothing", async () => {
    const owner = await keyOf("owner:hook-tg-sig");
    const { code } = await ownerClient(owner).bindCode("telegram");
    expect(await postTelegram(telegramText(9001, `/start ${code}`), null)).toMatchObject({
      status: 401,
      body: { error: { code: "E_AUTH" } },
    });
    expect((await postTelegram(telegramText(9001, `/start ${code}`), "wrong-secret")).status).toBe(401);
    expect((await ownerClient(owner).channels()).channels).toEqual([]);
    // The code was not spent by the refused requests.
    expect((await postTelegram(telegramText(9001, `/start ${code}`))).body.text).toContain("Bound.");
  });

  it("refuses LINE with a missing or wrong X-Line-Signature", async () => {
    const owner = await keyOf("owner:hook-line-sig");
    const { code } = await ownerClient(owner).bindCode("line");
    expect((await postLine([lineText("U9002", code)], "AAAA")).status).toBe(401);
    expect((await postLine([lineText("U9002", code)], "")).status).toBe(401);
    expect((await ownerClient(owner).channels()).channels).toEqual([]);
  });

  it("refuses Discord signed by another key, over another timestamp, or too old", async () => {
    const stranger = await keyOf("not-discord");
    const ping = { id: "1", application_id: "4242424242", type: 1, token: "t", version: 1 };
    expect((await postDiscord(ping, { signer: stranger })).status).toBe(401);
    expect((await postDiscord(ping, { signature: "00".repeat(64) })).status).toBe(401);
    expect((await postDiscord(ping, { timestamp: Math.floor(Date.now() / 1000) - 3600 })).status).toBe(401);
  });

  it("leaves a table untouched when a forged pause command is refused", async () => {
    const id = "hook-forged-pause";
    await room(id);
    expect((await headUnmoved(relay, id, () => postTelegram(telegramText(9003, `/pause ${id}`), "guess"))).status).toBe(
      401,
    );
  });
});

describe("when the path names no chat platform", () => {
  it("answers 404 E_NOT_FOUND, as any unknown path, however the request is signed", async () => {
    for (const path of ["/hooks/whatsapp", "/hooks/Telegram", "/hooks/telegram/extra"]) {
      const res = await SELF.fetch(`https://relay.test${path}`, {
        method: "POST",
        headers: { "x-telegram-bot-api-secret-token": "test-telegram-webhook-secret" },
        body: "{}",
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: "E_NOT_FOUND" } });
    }
  });
});

describe("Discord PING", () => {
  it("answers PONG", async () => {
    expect(await postDiscord({ id: "2", application_id: "4242424242", type: 1, token: "t", version: 1 })).toEqual({
      status: 200,
      body: { type: 1 },
    });
  });
});

describe("when a message is not for this bot", () => {
  it("ignores /cmd@otherbot and group messages not addressed to this bot, and answers one addressed to it in the sender's private chat, never the group", async () => {
    const owner = await keyOf("owner:hook-other-bot");
    await bindVia("telegram", owner, "9010");
    expect((await postTelegram(telegramText(9010, "/status@other_bot"))).body).toEqual({});
    expect(
      (await postTelegram(telegramText(9010, "/status", { chat: { id: -100900, type: "supergroup" } }))).body,
    ).toEqual({});
    const addressed = await postTelegram(
      telegramText(9010, "/status@trestle_test_bot", { chat: { id: -100900, type: "supergroup" } }),
    );
    expect(addressed.body).toMatchObject({ method: "sendMessage", chat_id: "9010" });
  });

  it("ignores a Discord interaction for another application, and LINE group messages", async () => {
    expect(
      (await postDiscord(discordCommand("9011", "99011", "status", undefined, { application: "999" }))).body.data
        .content,
    ).toBe("…");
    await postLine([lineText("U9012", "/status", { source: { type: "group", groupId: "G1", userId: "U9012" } })]);
    expect(await requests("reply-U9012-")).toEqual([]);
  });
});

describe("chat commands", () => {
  it("answers status and tables for the bound owner", async () => {
    const id = "hook-status";
    const k = await room(id);
    await bindVia("telegram", k.tao, "9020");
    await drain(k.tao.publicKeyText);
    const status = await postTelegram(telegramText(9020, "/status"));
    expect(status.body.text).toContain("1 channel(s), 1 proven; 1 open table(s), 0 paused");
    const tables = await postTelegram(telegramText(9020, "/tables"));
    expect(tables.body.text).toContain(`${id} (open): Who pays for the GPUs?`);
  });

  it("says in status how many notices wait in the outbox, not yet delivered", async () => {
    const id = "hook-status-pending";
    const k = await room(id);
    await script({ match: '"chat_id":"9021"', status: 500, body: { ok: false, description: "Internal Server Error" } });
    await bindVia("telegram", k.tao, "9021");
    await drain(k.tao.publicKeyText);
    const status = await postTelegram(telegramText(9021, "/status"));
    expect(status.body.text).toContain(
      "1 channel(s), 0 proven; 1 open table(s), 0 paused; 1 notice(s) not yet delivered.",
    );
  });

  it("pauses and resumes a table from Telegram as relay-attested entries; writes in between get E_PAUSED", async () => {
    const id = "hook-pause";
    const k = await room(id);
    await bindVia("telegram", k.tao, "9030");
    const paused = await postTelegram(telegramText(9030, `/pause ${id}`));
    expect(paused.body.text).toMatch(/^Paused hook-pause \(entry \d+\)\.$/);
    const entries = await relay.read(id, `/tables/${id}/entries`, k.tao, { owner: "tao" });
    expect(entries.body.items.at(-1)).toMatchObject({
      subkind: "table_paused",
      author: null,
      data: { owner: "tao", via: "telegram" },
    });

    const said = await headUnmoved(relay, id, () =>
      relay.say(id, k.y, { seat: "y", kind: "say", body: "still here?" }),
    );
    expect(said).toMatchObject({ status: 409, body: { error: { code: "E_PAUSED" } } });

    expect((await postTelegram(telegramText(9030, `/resume ${id}`))).body.text).toContain(
      "Lifted your pause on hook-pause",
    );
    expect((await relay.say(id, k.y, { seat: "y", kind: "say", body: "back" })).status).toBe(201);
  });

  it("does the same from LINE and Discord, replying in the sender's language", async () => {
    const id = "hook-pause-2";
    const k = await room(id);
    await bindVia("discord", k.jenny, "9040", "99040");
    const reply = await postDiscord(discordCommand("9040", "99040", "pause", id, { locale: "zh-TW" }));
    expect(reply.body).toMatchObject({ type: 4, data: { flags: 64 } });
    expect(reply.body.data.content).toContain("已暫停 hook\\-pause\\-2");
    await bindVia("line", k.jenny, "U9041");
    await postLine([lineText("U9041", `resume ${id}`)]);
    const replies = await requests("reply-U9041-");
    expect(JSON.stringify(replies.at(-1)!.body)).toContain("Lifted your pause on hook-pause-2");
  });

  it("refuses to pause for an owner without a seat there, and changes nothing", async () => {
    const id = "hook-pause-noseat";
    const k = await room(id);
    await bindVia("telegram", k.ops, "9050");
    expect((await headUnmoved(relay, id, () => postTelegram(telegramText(9050, `/pause ${id}`)))).body.text).toContain(
      "E_FORBIDDEN",
    );
  });

  it("pauses by the owner's own signature over HTTP, and a retried request returns the same entry", async () => {
    const id = "hook-pause-signed";
    const k = await room(id);
    const request = await signControl(k.jenny, {
      table: id,
      owner: "jenny",
      action: "pause",
      nonce: nonceOf("signed-pause"),
    });
    const first = await relay.request("POST", `/tables/${id}/control`, request);
    expect(first.status).toBe(201);
    expect((await relay.request("POST", `/tables/${id}/control`, request)).body.seq).toBe(first.body.seq);
  });

  describe("when an owner-signed control is bad", () => {
    it.each([
      [
        "E_BAD_SIGNATURE",
        "signed by another owner's key",
        async (k: Room, id: string) =>
          signControl(k.tao, { table: id, owner: "jenny", action: "pause", nonce: nonceOf("forged") }),
      ],
      [
        "E_WRONG_TABLE",
        "signed for another table",
        async (k: Room) =>
          signControl(k.jenny, { table: "other-table", owner: "jenny", action: "pause", nonce: nonceOf("other") }),
      ],
      [
        "E_FORBIDDEN",
        "from an owner without a seat",
        async (k: Room, id: string) =>
          signControl(k.ops, { table: id, owner: "ops", action: "pause", nonce: nonceOf("ops") }),
      ],
      [
        "E_NOT_ALLOWED",
        "resuming a running table",
        async (k: Room, id: string) =>
          signControl(k.jenny, { table: id, owner: "jenny", action: "resume", nonce: nonceOf("resume") }),
      ],
      [
        "E_SCHEMA",
        "with an unknown field",
        async (k: Room, id: string) => ({
          ...(await signControl(k.jenny, { table: id, owner: "jenny", action: "pause", nonce: nonceOf("x") })),
          extra: 1,
        }),
      ],
    ] as const)("refuses %s (%s) and leaves the head", async (code, _what, make) => {
      const id = `bad-control-${code.toLowerCase().replace(/_/g, "-")}`;
      const k = await room(id);
      const request = await make(k, id);
      expect(
        (await headUnmoved(relay, id, () => relay.request("POST", `/tables/${id}/control`, request))).body.error.code,
      ).toBe(code);
    });
  });

  describe("when a webhook body is not the platform's shape", () => {
    it("refuses a correctly authenticated Telegram body that is not an update with E_SCHEMA", async () => {
      expect(await postTelegram({ hello: "world" })).toMatchObject({
        status: 400,
        body: { error: { code: "E_SCHEMA" } },
      });
    });
  });

  it("tells an unbound account how to bind", async () => {
    expect((await postTelegram(telegramText(9060, "/tables"))).body.text).toContain("trestle bind telegram");
  });

  it("does nothing for a redelivered update", async () => {
    const id = "hook-replay";
    const k = await room(id);
    await bindVia("telegram", k.tao, "9070");
    const update = telegramText(9070, `/pause ${id}`);
    expect((await postTelegram(update)).body.text).toContain("Paused");
    expect((await headUnmoved(relay, id, () => postTelegram(update))).body).toEqual({});
  });
});

describe("approve and reject buttons", () => {
  it("renders an approval request with its effects in words and buttons within each platform's limits", async () => {
    const owner = await keyOf("owner:hook-render");
    await bindVia("telegram", owner, "9080");
    await bindVia("line", owner, "U9081");
    await bindVia("discord", owner, "9082", "99082");
    await sendApproval(owner, "render-table");
    await drain(owner.publicKeyText);
    const tg = (await requests('"chat_id":"9080"')).at(-1)!.body as {
      text: string;
      reply_markup: { inline_keyboard: { text: string; callback_data: string }[][] };
    };
    expect(tg.text).toContain("tao: merge on repo:github.com/tao/infra");
    expect(tg.text).toContain('with {"note":"&lt;b&gt;now&lt;/b&gt;","pr":461}');
    const buttons = tg.reply_markup.inline_keyboard[0]!;
    expect(buttons.map((b) => b.text)).toEqual(["Approve", "Reject"]);
    for (const b of buttons) expect(new TextEncoder().encode(b.callback_data).length).toBeLessThanOrEqual(64);
    const line = JSON.stringify((await requests('"to":"U9081"')).at(-1)!.body);
    expect(line).toContain('"type":"confirm"');
    expect(line).toContain(
      `"data":"${encodeCallback({ verb: "approve", ref: approvalRef(owner.publicKeyText, "render-table:7:approval_needed") })}"`,
    );
    const discord = (await requests("/discord/channels/99082/messages")).at(-1)!.body as {
      components: { components: { custom_id: string; style: number }[] }[];
    };
    expect(discord.components[0]!.components.map((c) => [c.style, c.custom_id.length <= 100])).toEqual([
      [3, true],
      [4, true],
    ]);
  });

  it("keeps an approval request of 16 large effects sent without a table within each platform's limits, ending with how to approve by key", async () => {
    const owner = await keyOf("owner:hook-limits");
    await bindVia("telegram", owner, "9085");
    await bindVia("line", owner, "U9086");
    await bindVia("discord", owner, "9087", "99087");
    const effect = (i: number) => ({
      owner: "tao",
      resource: `repo:github.com/tao/infra-${i}`,
      action: "merge",
      args: { note: "<b>&</b> ".repeat(150) },
    });
    const event = {
      ...approvalEvent("limits-table"),
      id: "limits-table:7:approval_needed",
      effects: Array.from({ length: 16 }, (_, i) => effect(i)),
    };
    expect(
      unwrap(await ownerDO(owner.publicKeyText).notify({ owner_key: owner.publicKeyText, events: [event] })),
    ).toEqual({ queued: 3 });
    await drain(owner.publicKeyText);
    for (const [platform, chat] of [
      ["telegram", "9085"],
      ["line", "U9086"],
      ["discord", "99087"],
    ] as const) {
      const body = await lastWithButtons(platform, chat);
      expect(limitViolations(platform, body)).toEqual([]);
      expect(visibleText(platform, body).split("\n").at(-1)).toContain(
        "This message cannot show all 16 effects in full, so it has no Approve button.",
      );
    }
  });

  it("answers a tap in each platform's way (answerCallbackQuery alert, ephemeral Discord reply, LINE reply), saying what went wrong when the table is gone", async () => {
    const owner = await keyOf("owner:hook-tap");
    await bindVia("telegram", owner, "9090");
    await bindVia("discord", owner, "9091", "99091");
    await bindVia("line", owner, "U9092");
    await sendApproval(owner, "tap-table");
    await drain(owner.publicKeyText);
    const approve = encodeCallback({
      verb: "approve",
      ref: approvalRef(owner.publicKeyText, "tap-table:7:approval_needed"),
    });
    const tap = await postTelegram(telegramTap(9090, approve));
    expect(tap.body).toMatchObject({ method: "answerCallbackQuery", show_alert: true });
    expect(tap.body.text.length).toBeLessThanOrEqual(200);
    expect(tap.body.text).toContain("Could not record this tap: E_TABLE_NOT_FOUND");
    const press = await postDiscord(discordButton("9091", "99091", approve.replace(".a.", ".r.")));
    expect(press.body).toMatchObject({ type: 4, data: { flags: 64 } });
    expect(press.body.data.content).toContain("E\\_TABLE\\_NOT\\_FOUND");
    await postLine([linePostback("U9092", approve)]);
    expect(JSON.stringify((await requests("reply-U9092-")).at(-1)!.body)).toContain("Could not record this tap");
  });

  it("answers a replayed tap with nothing, and a tap by another owner's account or with junk data as unknown or expired", async () => {
    const owner = await keyOf("owner:hook-tap-2");
    const other = await keyOf("owner:hook-tap-2-other");
    await bindVia("telegram", owner, "9100");
    await bindVia("telegram", other, "9101");
    await sendApproval(owner, "tap2-table");
    await drain(owner.publicKeyText);
    const data = encodeCallback({
      verb: "approve",
      ref: approvalRef(owner.publicKeyText, "tap2-table:7:approval_needed"),
    });
    const update = telegramTap(9100, data);
    expect((await postTelegram(update)).body.text).toContain("Could not record this tap");
    expect((await postTelegram(update)).body).toEqual({
      method: "answerCallbackQuery",
      callback_query_id: update.callback_query.id,
    });
    const unknown =
      "This button matches no approval request the relay holds for this account: it is unknown or has expired. Nothing was recorded.";
    expect((await postTelegram(telegramTap(9101, data))).body.text).toBe(unknown);
    expect((await postTelegram(telegramTap(9100, "t1.a.<script>"))).body.text).toBe(unknown);
  });

  describe("when a button names an approval the owner's object no longer holds", () => {
    it("says it is unknown or has expired, not that it is another owner's, and records nothing", async () => {
      const owner = await keyOf("owner:hook-tap-expired");
      await bindVia("telegram", owner, "9110");
      await sendApproval(owner, "expired-table");
      await drain(owner.publicKeyText);
      // The owner's object keeps its newest 1000 events; this one has been pruned.
      await runInDurableObject(ownerDO(owner.publicKeyText), (_o: OwnerDO, state) =>
        state.storage.sql.exec("DELETE FROM events WHERE id = 'expired-table:7:approval_needed'"),
      );
      const reject = encodeCallback({
        verb: "reject",
        ref: approvalRef(owner.publicKeyText, "expired-table:7:approval_needed"),
      });
      const reply = (await postTelegram(telegramTap(9110, reject))).body.text as string;
      expect(reply).toBe(
        "This button matches no approval request the relay holds for this account: it is unknown or has expired. Nothing was recorded.",
      );
      expect(reply).not.toContain("another owner");
    });
  });
});
