/** Binding a chat account with a one-time code (docs/SPEC.md §11.2): signed code requests, single use, expiry, guess limits, unbind. */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signBindCode, signOwnerAuth } from "../../src/client/owner-requests.js";
import type { ChatDirectoryDO } from "../../durable-objects/chat-directory/directory.js";
import { bindVia, drain, ownerClient, postTelegram, requests, telegramText } from "../support/chat-driver.js";
import { keyOf, nonceOf } from "../support/table-fixture.js";
import { RelayHttp } from "../support/relay-http.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
const directory = () => env.CHAT_DIRECTORY.getByName("directory");

async function codeFor(
  owner: Awaited<ReturnType<typeof keyOf>>,
  platform: "telegram" | "line" | "discord" = "telegram",
) {
  return (await ownerClient(owner).bindCode(platform)).code;
}

describe("binding a Telegram account", () => {
  it("binds with /start CODE, starts UNPROVEN, and is proven by its first delivery", async () => {
    const owner = await keyOf("owner:bind-1");
    const reply = await bindVia("telegram", owner, "7001");
    expect(reply).toContain("Bound.");
    expect(reply).toContain("not who you are");
    const before = await ownerClient(owner).channels();
    expect(before.channels).toMatchObject([{ platform: "telegram", account: "7001", state: "unproven", delivered: 0 }]);
    expect(before.has_proven_channel).toBe(false);

    const report = await drain(owner.publicKeyText);
    expect(report).toMatchObject({ sent: 1, delivered: 1 });
    const sent = await requests('"chat_id":"7001"');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toBe("/telegram/bot123:test-telegram-token/sendMessage");
    const after = await ownerClient(owner).channels();
    expect(after.channels[0]).toMatchObject({
      state: "ok",
      delivered: 1,
      last_attempt: { status: "delivered", http_status: 200 },
    });
    expect(after.has_proven_channel).toBe(true);
  });

  it("accepts the code typed bare, lower-case, without the hyphen", async () => {
    const owner = await keyOf("owner:bind-bare");
    const code = await codeFor(owner);
    const reply = await postTelegram(telegramText(7002, code.replace("-", "").toLowerCase()));
    expect(reply.body.text).toContain("Bound.");
  });

  it("replies in the sender's language", async () => {
    const owner = await keyOf("owner:bind-ja");
    const code = await codeFor(owner);
    const reply = await postTelegram(telegramText(7003, `/start ${code}`, { lang: "ja" }));
    expect(reply.body.text).toContain("連携しました");
  });
});

describe("when a code is misused", () => {
  it("refuses a code the second time, even from the same account", async () => {
    const owner = await keyOf("owner:bind-reuse");
    const code = await codeFor(owner);
    expect((await postTelegram(telegramText(7010, `/start ${code}`))).body.text).toContain("Bound.");
    expect((await postTelegram(telegramText(7011, `/start ${code}`))).body.text).toContain("not valid");
    const channels = await ownerClient(owner).channels();
    expect(channels.channels.map((c) => c.account)).toEqual(["7010"]);
  });

  it("refuses an expired code", async () => {
    const owner = await keyOf("owner:bind-expired");
    const code = await codeFor(owner);
    await runInDurableObject(directory(), (_d: ChatDirectoryDO, state) => {
      state.storage.sql.exec(
        "UPDATE codes SET expires_at = ? WHERE owner_key = ?",
        Date.now() - 1,
        owner.publicKeyText,
      );
    });
    expect((await postTelegram(telegramText(7020, `/start ${code}`))).body.text).toContain("not valid");
    expect((await ownerClient(owner).channels()).channels).toEqual([]);
  });

  it("refuses a code made for another platform without spending it", async () => {
    const owner = await keyOf("owner:bind-platform");
    const code = await codeFor(owner, "line");
    expect((await postTelegram(telegramText(7030, `/start ${code}`))).body.text).toContain("made for line");
  });

  it("locks an account out after 5 wrong codes, even for a right one", async () => {
    const owner = await keyOf("owner:bind-guess");
    const code = await codeFor(owner);
    for (let i = 0; i < 5; i++) {
      expect((await postTelegram(telegramText(7040, `/start ABCD-EFG${"23456"[i]}`))).body.text).toContain("not valid");
    }
    expect((await postTelegram(telegramText(7040, `/start ${code}`))).body.text).toContain("Too many wrong codes");
    // Another account can still use it: the limit is per account.
    expect((await postTelegram(telegramText(7041, `/start ${code}`))).body.text).toContain("Bound.");
  });

  it("pauses all redemption after 100 wrong codes relay-wide", async () => {
    await runInDurableObject(directory(), (_d: ChatDirectoryDO, state) => {
      state.storage.sql.exec(
        "INSERT OR REPLACE INTO counters (name, window, count) VALUES ('miss:*', ?, 100)",
        Math.floor(Date.now() / 3_600_000) * 3_600_000,
      );
    });
    const owner = await keyOf("owner:bind-global");
    const code = await codeFor(owner);
    expect((await postTelegram(telegramText(7050, `/start ${code}`))).body.text).toContain("Too many wrong codes");
    await runInDurableObject(directory(), (_d: ChatDirectoryDO, state) =>
      state.storage.sql.exec("DELETE FROM counters WHERE name = 'miss:*'"),
    );
  });
});

describe("when a bind-code request is not right", () => {
  const post = (key: string, body: unknown) => relay.request("POST", `/owners/${key}/bind-codes`, body);

  it("refuses a request signed by another key", async () => {
    const owner = await keyOf("owner:bind-sig");
    const other = await keyOf("owner:bind-sig-other");
    const request = await signBindCode(other, {
      platform: "telegram",
      lang: "en",
      nonce: nonceOf("sig"),
      now: Date.now(),
    });
    const reply = await post(owner.publicKeyText, {
      ...request,
      statement: { ...request.statement, owner_key: owner.publicKeyText },
    });
    expect(reply).toMatchObject({ status: 401, body: { error: { code: "E_BAD_SIGNATURE" } } });
  });

  it("refuses a statement for another owner key, a stale one, and a replayed one", async () => {
    const owner = await keyOf("owner:bind-replay");
    const other = await keyOf("owner:bind-replay-other");
    const request = await signBindCode(owner, {
      platform: "telegram",
      lang: "en",
      nonce: nonceOf("replay"),
      now: Date.now(),
    });
    expect((await post(other.publicKeyText, request)).body.error.code).toBe("E_FORBIDDEN");
    const stale = await signBindCode(owner, {
      platform: "telegram",
      lang: "en",
      nonce: nonceOf("stale"),
      now: Date.now() - 600_000,
    });
    expect((await post(owner.publicKeyText, stale)).body.error.code).toBe("E_EXPIRED");
    expect((await post(owner.publicKeyText, request)).status).toBe(201);
    expect(await post(owner.publicKeyText, request)).toMatchObject({
      status: 409,
      body: { error: { code: "E_NONCE_REUSED" } },
    });
  });

  it("rate-limits code creation per owner key", async () => {
    const owner = await keyOf("owner:bind-rate");
    const client = ownerClient(owner);
    for (let i = 0; i < 5; i++) await client.bindCode("discord");
    await expect(client.bindCode("discord")).rejects.toMatchObject({ code: "E_RATE_LIMITED" });
  });

  it("spends nothing on a request over the rate: the same signed request sent again is refused the same way", async () => {
    const owner = await keyOf("owner:bind-rate-again");
    const client = ownerClient(owner);
    for (let i = 0; i < 5; i++) await client.bindCode("discord");
    const request = await signBindCode(owner, {
      platform: "discord",
      lang: "en",
      nonce: nonceOf("rate-again"),
      now: Date.now(),
    });
    const first = await post(owner.publicKeyText, request);
    expect(first).toMatchObject({
      status: 429,
      body: { error: { code: "E_RATE_LIMITED", details: { limit: "bind_codes_per_owner" } } },
    });
    expect(await post(owner.publicKeyText, request)).toMatchObject({
      status: 429,
      body: { error: { code: "E_RATE_LIMITED", details: { limit: "bind_codes_per_owner" } } },
    });
  });

  it("refuses a malformed owner key in the path", async () => {
    expect((await post("not-a-key", {})).body.error.code).toBe("E_SCHEMA");
  });
});

describe("unbinding", () => {
  it("removes a channel by the owner's signed request; the account can no longer command", async () => {
    const owner = await keyOf("owner:unbind-1");
    await bindVia("telegram", owner, "7060");
    expect(await ownerClient(owner).unbind("telegram", "7060")).toEqual({
      platform: "telegram",
      account: "7060",
      removed: true,
    });
    expect((await ownerClient(owner).channels()).channels).toEqual([]);
    expect((await postTelegram(telegramText(7060, "/status"))).body.text).toContain("not bound");
  });

  it("removes a channel with /unbind from the account itself", async () => {
    const owner = await keyOf("owner:unbind-2");
    await bindVia("telegram", owner, "7061");
    expect((await postTelegram(telegramText(7061, "/unbind"))).body.text).toContain("Unbound");
    expect((await ownerClient(owner).channels()).channels).toEqual([]);
  });
});

describe("when a channels read is not authorized", () => {
  it("refuses a missing, wrong-path, stale or other-key authorization with E_AUTH", async () => {
    const owner = await keyOf("owner:read-auth");
    const other = await keyOf("owner:read-auth-other");
    const path = `/owners/${owner.publicKeyText}/channels`;
    const read = (authorization?: string) =>
      relay.request("GET", path, undefined, authorization ? { authorization } : {});
    expect((await read()).body.error.code).toBe("E_AUTH");
    expect(
      (await read(await signOwnerAuth(owner, { method: "GET", path: `${path}?x=1`, now: Date.now() }))).body.error.code,
    ).toBe("E_AUTH");
    expect(
      (await read(await signOwnerAuth(owner, { method: "GET", path, now: Date.now() - 600_000 }))).body.error.code,
    ).toBe("E_AUTH");
    expect((await read(await signOwnerAuth(other, { method: "GET", path, now: Date.now() }))).status).toBe(401);
    expect((await read(await signOwnerAuth(owner, { method: "GET", path, now: Date.now() }))).status).toBe(200);
  });
});
