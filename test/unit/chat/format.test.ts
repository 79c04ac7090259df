/** Chat formatting: escaping, platform limits, callback data, languages, command parsing. */
import { describe, expect, it } from "vitest";
import { approvalRef, CALLBACK_DATA_BYTES, encodeCallback, parseCallback } from "../../../src/chat/callback.js";
import {
  DISCORD_CONTENT_CHARS,
  DISCORD_CUSTOM_ID_CHARS,
  discordContentChars,
  escapeDiscord,
  formatDiscord,
} from "../../../src/chat/platforms/discord.js";
import { failureOf } from "../../../src/chat/delivery.js";
import { MESSAGES, negotiateLang, t } from "../../../src/chat/i18n.js";
import { normalizeCode, parseCommandText } from "../../../src/chat/inbound.js";
import {
  formatLine,
  LINE_POSTBACK_DATA_CHARS,
  LINE_TEXT_CHARS,
  lineTextChars,
  retryKeyOf,
} from "../../../src/chat/platforms/line.js";
import { ellipsize, type ChatMessage } from "../../../src/chat/message.js";
import { renderNotification } from "../../../src/chat/render.js";
import {
  escapeTelegramHtml,
  fitsTelegram,
  formatTelegram,
  parseTelegramUpdate,
  TELEGRAM_CALLBACK_BYTES,
  TELEGRAM_TEXT_CHARS,
  telegramTextChars,
} from "../../../src/chat/platforms/telegram.js";
import { CloseReasonSchema, LangSchema, sha256, utf8, type Notification } from "../../../src/protocol/index.js";
import { bodyChars } from "../../support/chat-limits.js";

const KEY = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
const approval: Notification = {
  type: "approval_needed",
  id: "t-459:12:approval_needed",
  table: "t-459",
  topic: "Should #459 ship before #461?",
  task: "t-12",
  proposal_seq: 12,
  proposer: "judge",
  effects: [{ owner: "jenny", resource: "repo:github.com/jenny/app", action: "merge", args: { pr: 459 } }],
};

const long = (n: number): ChatMessage => ({ title: "T", lines: ["a<b>&".repeat(n)], actions: [] });

describe("escaping", () => {
  it("escapes &, < and > for Telegram HTML and nothing else", () => {
    expect(escapeTelegramHtml(`<b>x</b> & "y" *z*`)).toBe(`&lt;b&gt;x&lt;/b&gt; &amp; "y" *z*`);
  });

  it("escapes Discord markdown so text renders literally", () => {
    expect(escapeDiscord("*bold* _it_ ~s~ `c` |sp| > q # h - l [a](b) \\")).toBe(
      "\\*bold\\* \\_it\\_ \\~s\\~ \\`c\\` \\|sp\\| \\> q \\# h \\- l \\[a\\]\\(b\\) \\\\",
    );
  });
});

describe("platform limits", () => {
  it("cuts Telegram text to 4096 characters after entities parsing, ending with …", () => {
    const body = formatTelegram(long(5000));
    const text = body.text as string;
    expect(bodyChars("telegram", body)).toBeLessThanOrEqual(TELEGRAM_TEXT_CHARS);
    expect(bodyChars("telegram", body)).toBeGreaterThan(TELEGRAM_TEXT_CHARS - 10);
    expect(text.endsWith("…")).toBe(true);
    expect(text).not.toMatch(/&[a-z]*…$/);
  });

  it("cuts Discord content to 2000 characters and LINE text to 5000", () => {
    expect(bodyChars("discord", formatDiscord(long(5000)))).toBeLessThanOrEqual(DISCORD_CONTENT_CHARS);
    const [text] = formatLine(long(5000)) as { text: string }[];
    expect(text!.text.length).toBe(LINE_TEXT_CHARS);
  });

  it("counts as each platform counts: Telegram the parsed text and Discord the content as sent in code points, LINE in UTF-16 code units", () => {
    expect(telegramTextChars("<b>T</b>\n&lt;&amp;&gt;&quot;&#128512;😀")).toBe(8);
    expect(discordContentChars("**T**\n\\*😀")).toBe(9);
    expect(lineTextChars("T\n😀")).toBe(4);
  });

  it("never splits a surrogate pair when cutting", () => {
    expect(ellipsize("ab😀cd", 4)).toBe("ab…");
  });

  it("keeps callback data within Telegram's 64 bytes, LINE's 300 and Discord's 100", () => {
    const message = renderNotification(approval, KEY, "ja", fitsTelegram);
    for (const action of message.actions) {
      expect(utf8(action.data).length).toBe(CALLBACK_DATA_BYTES);
      expect(CALLBACK_DATA_BYTES).toBeLessThanOrEqual(
        Math.min(TELEGRAM_CALLBACK_BYTES, LINE_POSTBACK_DATA_CHARS, DISCORD_CUSTOM_ID_CHARS),
      );
    }
  });
});

describe("when a table's topic forges lines", () => {
  it("keeps it on the table's line, where it cannot pass for an effect or for whether a tap counts", () => {
    const topic =
      "Ship?\n• jenny: read on taskboard\r\nYour chat_approve rules cover this task: Approve here is recorded for you\u2028\u202ex";
    const message = renderNotification({ ...approval, topic, chat_approve: false }, KEY, "en", fitsTelegram);
    expect(message.lines[0]).toBe(
      "Table t-459: Ship? • jenny: read on taskboard Your chat_approve rules cover this task: Approve here is recorded for you x",
    );
    expect(message.lines.filter((line) => line.startsWith("• "))).toEqual([
      "• jenny: merge on repo:github.com/jenny/app",
    ]);
    for (const line of message.lines) expect(line).not.toMatch(/[\n\r\u0085\u2028\u2029\u202e]/);
  });
});

describe("callback data", () => {
  it("round-trips approve and reject, bound to one owner's one event", () => {
    const ref = approvalRef(KEY, approval.id);
    expect(parseCallback(encodeCallback({ verb: "approve", ref }))).toEqual({ verb: "approve", ref });
    expect(parseCallback(encodeCallback({ verb: "reject", ref }))).toEqual({ verb: "reject", ref });
    expect(approvalRef(KEY.replace("1", "2"), approval.id)).not.toBe(ref);
  });

  describe("when the data is attacker-chosen", () => {
    it.each([
      "",
      "t1.x.AAAAAAAAAAAAAAAA",
      "t1.a.AAAA",
      "t2.a.AAAAAAAAAAAAAAAA",
      "t1.a.AAAAAAAAAAAAAAA/",
      "t1.a.AAAAAAAAAAAAAAAA\n",
    ])("refuses %j", (data) => {
      expect(parseCallback(data)).toBeNull();
    });
    it("refuses non-strings", () => expect(parseCallback(42)).toBeNull());
  });
});

describe("languages", () => {
  it("has every message in every language, with the same placeholders", () => {
    const placeholders = (s: string) => [...s.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]).sort();
    for (const lang of LangSchema.options) {
      expect(Object.keys(MESSAGES[lang]).sort()).toEqual(Object.keys(MESSAGES.en).sort());
      for (const [key, text] of Object.entries(MESSAGES[lang]))
        expect([key, placeholders(text)]).toEqual([key, placeholders(MESSAGES.en[key as keyof typeof MESSAGES.en])]);
    }
  });

  it("says why a table closed, for every close reason, in every language", () => {
    for (const lang of LangSchema.options) {
      for (const reason of CloseReasonSchema.options) {
        const closed: Notification = {
          type: "table_closed",
          id: "t-459:40:table_closed",
          table: "t-459",
          topic: "Ship?",
          seq: 40,
          reason,
        };
        const [, line] = renderNotification(closed, KEY, lang, fitsTelegram).lines;
        expect(line).toBe(t(lang, "line.closed", { reason: MESSAGES[lang][`reason.${reason}`] }));
        expect(line).not.toContain("reason.");
      }
    }
  });

  it("names every pause holder and how each paused after a pause or a lift, in every language", () => {
    const pauses = [
      { owner: "alice", via: "owner" as const, seq: 5 },
      { owner: "bob", via: "telegram" as const, seq: 7 },
    ];
    const event = (type: "table_paused" | "table_resumed", held: typeof pauses | undefined): Notification => ({
      type,
      id: `t-459:9:${type}`,
      table: "t-459",
      topic: "Ship?",
      seq: 9,
      owner: "bob",
      via: "telegram",
      ...(held ? { pauses: held } : {}),
    });
    expect(renderNotification(event("table_paused", pauses), KEY, "en", fitsTelegram).lines.slice(1)).toEqual([
      "bob put their pause on it (Telegram).",
      "Paused by alice (owner key), bob (Telegram). It takes writes again once each of them lifts their own pause.",
    ]);
    expect(
      renderNotification(event("table_resumed", pauses.slice(0, 1)), KEY, "en", fitsTelegram).lines.slice(1),
    ).toEqual([
      "bob lifted their own pause (Telegram).",
      "Paused by alice (owner key). It takes writes again once each of them lifts their own pause.",
    ]);
    expect(renderNotification(event("table_resumed", []), KEY, "en", fitsTelegram).lines.at(-1)).toBe(
      "No pause holds now: the table takes writes again.",
    );
    // An event from before pauses were per owner carries no holders: it says what it knows.
    expect(renderNotification(event("table_resumed", undefined), KEY, "en", fitsTelegram).lines).toHaveLength(2);
    for (const lang of LangSchema.options) {
      const text = renderNotification(event("table_paused", pauses), KEY, lang, fitsTelegram).lines.join("\n");
      expect(text).toContain(MESSAGES[lang]["via.owner"]);
      expect(text).toContain("Telegram");
      expect(text).not.toMatch(/[{}]|via\./);
    }
  });

  it("says what a room's deal binds, in the words every surface uses for terms, in the owner's language", () => {
    const offer = {
      seq: 12,
      seat: "sara-bot",
      terms: { amount: 280000, currency: "TWD" as const, text: "stroller, folds flat" },
      expires: Date.UTC(2027, 0, 2, 10),
    };
    const closed: Notification = {
      type: "table_closed",
      id: "r-1:15:table_closed",
      table: "r-1",
      topic: "Stroller",
      seq: 15,
      reason: "deal",
      deal: { offer },
    };
    expect(renderNotification(closed, KEY, "en", fitsTelegram).lines[2]).toBe(
      'Deal: offer #12 by sara-bot: 2,800.00 TWD (280000 minor units) for "stroller, folds flat", expires 2027-01-02T10:00:00.000Z',
    );
    expect(renderNotification(closed, KEY, "ja", fitsTelegram).lines[2]).toBe(
      '成立：sara-bot のオファー #12: 2,800.00 TWD (280000 最小通貨単位) 内容 "stroller, folds flat", 有効期限 2027-01-02T10:00:00.000Z',
    );
    const auction: Notification = { ...closed, deal: { auction: { seq: 9, price: 275000, currency: "TWD" } } };
    expect(renderNotification(auction, KEY, "en", fitsTelegram).lines[2]).toBe(
      "Deal: auction #9: 2,750.00 TWD (275000 minor units)",
    );
  });

  it("maps platform language tags to the nearest supported language", () => {
    expect(
      ["zh-hans", "zh-CN", "zh", "zh-SG", "zh-TW", "zh-HK", "zh-Hant-TW", "ja", "ja-JP", "en-GB", "fr", undefined].map(
        (x) => negotiateLang(x),
      ),
    ).toEqual([
      "zh-Hans",
      "zh-Hans",
      "zh-Hans",
      "zh-Hans",
      "zh-Hant",
      "zh-Hant",
      "zh-Hant",
      "ja",
      "ja",
      "en",
      "en",
      "en",
    ]);
  });

  it("renders a notification in each language with the effect in plain words", () => {
    expect(renderNotification(approval, KEY, "en", fitsTelegram).lines).toContain(
      "• jenny: merge on repo:github.com/jenny/app",
    );
    expect(renderNotification(approval, KEY, "zh-Hans", fitsTelegram).title).toBe("需要你的批准");
    expect(renderNotification(approval, KEY, "zh-Hant", fitsTelegram).actions.map((a) => a.label)).toEqual([
      "核准",
      "拒絕",
    ]);
    expect(renderNotification(approval, KEY, "ja", fitsTelegram).lines.join("\n")).toContain('引数 {"pr":459}');
  });

  it("says on an approval request whether a tap can approve, or names the command that signs, in each language", () => {
    const yes = { ...approval, chat_approve: true };
    const no = { ...approval, chat_approve: false };
    expect(renderNotification(yes, KEY, "en", fitsTelegram).lines.at(-1)).toContain(
      "Approve here is recorded for you, relay-attested",
    );
    expect(renderNotification(no, KEY, "en", fitsTelegram).lines.at(-1)).toBe(
      "Approving needs your signature: trestle approve t-12 --table t-459 on your own machine, or the MCP approve tool. Reject works here.",
    );
    for (const lang of LangSchema.options) {
      expect(renderNotification(no, KEY, lang, fitsTelegram).lines.at(-1)).toContain(
        "trestle approve t-12 --table t-459",
      );
      expect(renderNotification(yes, KEY, lang, fitsTelegram).lines.at(-1)).toContain("chat_approve");
      expect(renderNotification(no, KEY, lang, fitsTelegram).actions).toHaveLength(2);
    }
    expect(renderNotification(approval, KEY, "en", fitsTelegram).lines.at(-1)).toBe('  with {"pr":459}');
  });

  it("records a tap that approved or rejected, with the warning that it is not the owner's signature, in each language", () => {
    const record: Notification = {
      type: "chat_approval",
      id: "t-459:15:chat_approval",
      table: "t-459",
      topic: "Ship?",
      seq: 15,
      task: "12.jenny",
      verdict: "approve",
      via: "line",
    };
    const en = renderNotification(record, KEY, "en", fitsTelegram);
    expect(en).toEqual({
      title: "Recorded from chat",
      lines: [
        "Table t-459: Ship?",
        "Task 12.jenny was approved by a tap in LINE (entry 15).",
        "The relay attests this tap; it is not your signature. If it was not you, unbind that account (trestle channels, trestle unbind) and check the table.",
      ],
      actions: [],
    });
    expect(renderNotification({ ...record, verdict: "reject" }, KEY, "ja", fitsTelegram).lines[1]).toBe(
      "タスク 12.jenny が LINE でのタップにより却下されました（エントリ 15）。",
    );
    expect(renderNotification(record, KEY, "zh-Hant", fitsTelegram).title).toBe("來自聊天的記錄");
    expect(renderNotification(record, KEY, "zh-Hans", fitsTelegram).lines[2]).toContain("不是你的签名");
  });

  it("fills placeholders without interpreting the values", () => {
    expect(t("en", "line.table", { table: "{topic}", topic: "$& x" })).toBe("Table {topic}: $& x");
  });
});

describe("command text", () => {
  it("parses the commands, with or without a slash, and a bare code as bind", () => {
    expect(parseCommandText("/status")).toEqual({ name: "status" });
    expect(parseCommandText("TABLES")).toEqual({ name: "tables" });
    expect(parseCommandText("/pause t-459")).toEqual({ name: "pause", table: "t-459" });
    expect(parseCommandText("resume")).toEqual({ name: "resume", table: null });
    expect(parseCommandText("/start abcd efgh")).toEqual({ name: "bind", code: "ABCD-EFGH" });
    expect(parseCommandText("abcd-efgh")).toEqual({ name: "bind", code: "ABCD-EFGH" });
    expect(parseCommandText("/start")).toEqual({ name: "help" });
  });

  describe("when the text is not a command", () => {
    it.each(["hello there", "/rm -rf", "/pause ../etc", "", "   ", "ABCD-EFG1"])("ignores %j", (text) => {
      const parsed = parseCommandText(text);
      expect(parsed === null || (parsed.name === "pause" && parsed.table === null)).toBe(true);
    });
    it("refuses codes with look-alike characters", () => expect(normalizeCode("ABCD-EFG0")).toBeNull());
  });

  it("ignores a Telegram command addressed to another bot, and groups unless addressed to this one, whose sender's private chat is where replies go", () => {
    const update = (text: string, type = "private") => ({
      update_id: 1,
      message: { from: { id: 5 }, chat: { id: type === "private" ? 5 : -9, type }, text },
    });
    expect(parseTelegramUpdate(update("/status@other_bot"), "me_bot")).toMatchObject({ kind: "ignored" });
    expect(parseTelegramUpdate(update("/status@ME_bot"), "me_bot")).toMatchObject({
      kind: "command",
      command: { name: "status" },
    });
    expect(parseTelegramUpdate(update("/status", "group"), "me_bot")).toMatchObject({ kind: "ignored" });
    expect(parseTelegramUpdate(update("/start@me_bot ABCD-EFGH", "group"), "me_bot")).toMatchObject({
      kind: "command",
      command: { name: "bind", code: "ABCD-EFGH" },
      sender: { chat: "5", group: "-9" },
    });
  });
});

describe("delivery outcomes", () => {
  it("classifies statuses: 429 and 5xx retry, 401/403/400 do not", () => {
    expect(
      [429, 500, 503, 401, 403, 400, 404].map((s) => {
        const r = failureOf(s, "x");
        return r.ok ? null : [r.reason, r.retry];
      }),
    ).toEqual([
      ["rate_limited", true],
      ["server_error", true],
      ["server_error", true],
      ["unauthorized", false],
      ["blocked", false],
      ["bad_request", false],
      ["bad_request", false],
    ]);
  });

  it("derives LINE retry keys as version-4 UUIDs, one per idempotency key", () => {
    const a = retryKeyOf(sha256(utf8("a")));
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(retryKeyOf(sha256(utf8("b")))).not.toBe(a);
  });
});
