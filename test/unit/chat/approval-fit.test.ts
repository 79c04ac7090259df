/**
 * Approval requests at each platform's real limits (src/chat/fit-approval.ts): a message either
 * shows every effect in full and offers Approve, or lists what fits, says how many effects it does
 * not show, offers Reject alone and ends, uncut, with how to approve with the owner key. Checked on
 * the body each formatter produces, against the limits written out in test/support/chat-limits.ts
 * and counted as each platform counts: Telegram the text after entities parsing in code points,
 * LINE its text message in UTF-16 code units, Discord the content as sent in code points.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDiscord } from "../../../src/chat/platforms/discord.js";
import { t } from "../../../src/chat/i18n.js";
import { formatLine } from "../../../src/chat/platforms/line.js";
import type { ChatMessage } from "../../../src/chat/message.js";
import { signCommand } from "../../../src/chat/render.js";
import { messageFor } from "../../../src/chat/send.js";
import { formatTelegram } from "../../../src/chat/platforms/telegram.js";
import { LangSchema, type ApprovalNeeded, type ChatPlatform, type Lang } from "../../../src/protocol/index.js";
import { bodyChars, buttonVerbs, limitViolations, visibleText } from "../../support/chat-limits.js";

const KEY = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
const PLATFORMS: readonly ChatPlatform[] = ["telegram", "line", "discord"];

/** The request body the relay sends for `message` on `platform` (what the fake API records). */
function wire(platform: ChatPlatform, message: ChatMessage): Record<string, unknown> {
  if (platform === "telegram") return { chat_id: "1", ...formatTelegram(message) };
  if (platform === "line") return { to: "U1", messages: formatLine(message) };
  return formatDiscord(message);
}

/** Effect `i` with canonical JSON arguments of about `argsChars` characters (2048 bytes at most, as the protocol allows). */
const effect = (i: number, argsChars: number) => ({
  owner: "jenny",
  resource: "taskboard",
  action: "create_card",
  args: { i, note: "x".repeat(argsChars) },
});

function request(effects: ApprovalNeeded["effects"], overrides: Partial<ApprovalNeeded> = {}): ApprovalNeeded {
  return {
    type: "approval_needed",
    id: "t-459:12:approval_needed",
    table: "t-459",
    topic: "Ship #459?",
    task: "12.jenny",
    proposal_seq: 12,
    proposer: "judge",
    effects,
    chat_approve: true,
    ...overrides,
  };
}

/** What a reader of `platform` sees for `event`, its buttons, and the limits it breaks. */
function sent(platform: ChatPlatform, event: ApprovalNeeded, lang: Lang = "en") {
  const message = messageFor(platform, event, KEY, lang);
  const body = wire(platform, message);
  const text = visibleText(platform, body);
  return {
    message,
    text,
    lines: text.split("\n"),
    verbs: buttonVerbs(platform, body),
    violations: limitViolations(platform, body),
  };
}

const effectLine = "• jenny: create_card on taskboard";

/** Each platform's limit on the text that shows the effects (sendMessage text, LINE's text message, Discord's content). */
const LIMIT: Record<ChatPlatform, number> = { telegram: 4096, line: 5000, discord: 2000 };

describe("an approval request counted as its platform counts", () => {
  it("keeps Approve on Telegram when the HTML is over 4096 characters but the text after entities parsing fits", () => {
    const event = request([
      { owner: "jenny", resource: "taskboard", action: "create_card", args: { note: "<&>".repeat(600) } },
    ]);
    const message = messageFor("telegram", event, KEY, "en");
    const body = wire("telegram", message);
    expect(String(body.text).length).toBeGreaterThan(4096);
    expect(bodyChars("telegram", body)).toBeLessThanOrEqual(4096);
    expect(limitViolations("telegram", body)).toEqual([]);
    expect(buttonVerbs("telegram", body)).toEqual(["approve", "reject"]);
    expect(visibleText("telegram", body)).toBe([message.title, ...message.lines].join("\n"));
    expect(visibleText("telegram", body)).toContain(`{"note":"${"<&>".repeat(600)}"}`);
  });

  // One effect whose arguments are `n` copies of `unit`, and no topic to cut first: the message
  // offers Approve exactly while its text, counted as the platform counts, is within the limit.
  it.each<[ChatPlatform, string, string]>([
    ["telegram", "<", "&lt; in the HTML, one character after entities parsing"],
    ["telegram", "😀", "one code point, two UTF-16 code units"],
    ["telegram", "x", "one character"],
    ["discord", "x", "one character"],
    ["discord", "*", "sent escaped as \\*, two characters"],
    ["discord", "😀", "one code point, two UTF-16 code units"],
    ["line", "x", "one character"],
    ["line", "<", "one character"],
    ["line", "😀", "two UTF-16 code units, as LINE counts"],
  ])(
    "on %s, with arguments of %j (%s), offers Approve up to the last unit of room and past it Reject alone with how to approve by key",
    (platform, unit) => {
      const event = (n: number) =>
        request([{ owner: "jenny", resource: "taskboard", action: "create_card", args: { note: unit.repeat(n) } }], {
          topic: "",
        });
      // Sent again, the title carries the resend mark the fit always reserves room for.
      const sentAgain = (n: number) => wire(platform, messageFor(platform, event(n), KEY, "en", true));
      const offers = (n: number) => buttonVerbs(platform, sentAgain(n)).includes("approve");
      let [lo, hi] = [0, 6000];
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (offers(mid)) lo = mid;
        else hi = mid - 1;
      }
      const last = sentAgain(lo);
      const step = bodyChars(platform, last) - bodyChars(platform, sentAgain(lo - 1));
      expect(limitViolations(platform, last)).toEqual([]);
      expect(visibleText(platform, last)).toContain(`{"note":"${unit.repeat(lo)}"}`);
      expect(bodyChars(platform, last)).toBeLessThanOrEqual(LIMIT[platform]);
      expect(bodyChars(platform, last) + step, "one more unit would not fit").toBeGreaterThan(LIMIT[platform]);

      const over = sentAgain(lo + 1);
      expect(limitViolations(platform, over)).toEqual([]);
      expect(buttonVerbs(platform, over)).toEqual(["reject"]);
      expect(visibleText(platform, over).split("\n").at(-1)).toBe(
        t("en", "line.chat_cut", { total: 1, command: signCommand("approve", "t-459", "12.jenny") }),
      );
    },
  );
});

describe("an approval request that fits", () => {
  it.each(PLATFORMS)(
    "shows every effect with its arguments in full on %s, offers Approve and ends with whether a tap counts",
    (platform) => {
      const event = request([effect(1, 40), effect(2, 40)]);
      const { lines, verbs, violations } = sent(platform, event);
      expect(violations).toEqual([]);
      expect(verbs).toEqual(["approve", "reject"]);
      expect(lines.filter((l) => l === effectLine)).toHaveLength(2);
      expect(lines).toContain(`  with {"i":2,"note":"${"x".repeat(40)}"}`);
      expect(lines.at(-1)).toBe(t("en", "line.chat_yes"));
    },
  );

  it("cuts the table's topic before it gives up showing an effect", () => {
    const event = request([effect(1, 1400)], { topic: "a long topic ".repeat(38) });
    const { lines, verbs, violations } = sent("discord", event);
    expect(violations).toEqual([]);
    expect(verbs).toEqual(["approve", "reject"]);
    expect(lines[1]!.endsWith("…")).toBe(true);
    expect(lines).toContain(`  with {"i":1,"note":"${"x".repeat(1400)}"}`);
  });
});

describe("when 16 large effects do not fit", () => {
  const sixteen = request(Array.from({ length: 16 }, (_, i) => effect(i, 1900)));

  it.each(PLATFORMS)(
    "on %s lists what fits, says how many are not shown, offers Reject alone and ends with the whole line on approving by key",
    (platform) => {
      const { lines, verbs, violations } = sent(platform, sixteen);
      expect(violations).toEqual([]);
      expect(verbs).toEqual(["reject"]);
      const listed = lines.filter((l) => l === effectLine).length;
      expect(listed).toBeGreaterThan(0);
      expect(listed).toBeLessThan(16);
      expect(lines.at(-2)).toBe(`…and ${16 - listed} more effect(s), not shown here.`);
      expect(lines.at(-1)).toBe(
        t("en", "line.chat_cut", { total: 16, command: signCommand("approve", "t-459", "12.jenny") }),
      );
    },
  );

  it.each(PLATFORMS)("does the same on %s in every language, with the longest ids the protocol allows", (platform) => {
    const table = `t${"-".repeat(63)}`;
    const task = `${"9".repeat(16)}.${"o".repeat(64)}`;
    const long = { ...sixteen, table, task, proposer: "p".repeat(64), topic: "*_-".repeat(166), chat_approve: false };
    for (const lang of LangSchema.options) {
      const { lines, verbs, violations } = sent(platform, long, lang);
      expect(violations).toEqual([]);
      expect(verbs).toEqual(["reject"]);
      expect(lines.at(-1)).toBe(t(lang, "line.chat_cut", { total: 16, command: signCommand("approve", table, task) }));
    }
  });
});

describe("whatever the effects, the topic and the language", () => {
  it("never offers Approve on a message that leaves out an effect or cuts its arguments, and never cuts the last line", () => {
    const arbitrary = fc.record({
      sizes: fc.array(fc.integer({ min: 0, max: 2000 }), { minLength: 1, maxLength: 16 }),
      unit: fc.constantFrom("x", "<&>", "😀", "*_"),
      topic: fc.string({ maxLength: 500 }),
      chat: fc.constantFrom(true, false, undefined),
      lang: fc.constantFrom(...LangSchema.options),
      platform: fc.constantFrom(...PLATFORMS),
    });
    fc.assert(
      fc.property(arbitrary, ({ sizes, unit, topic, chat, lang, platform }) => {
        const note = (n: number) => unit.repeat(Math.ceil(n / unit.length));
        const { chat_approve: _, ...base } = request(
          sizes.map((n, i) => ({ ...effect(i, 0), args: { i, note: note(n) } })),
          { topic },
        );
        const event: ApprovalNeeded = chat === undefined ? base : { ...base, chat_approve: chat };
        const { message, text, lines, verbs, violations } = sent(platform, event, lang);
        expect(violations).toEqual([]);
        expect(text).toBe([message.title, ...message.lines].join("\n"));
        const command = signCommand("approve", "t-459", "12.jenny");
        const listed = lines.filter(
          (l) => l === `• ${t(lang, "line.effect", { owner: "jenny", action: "create_card", resource: "taskboard" })}`,
        ).length;
        if (verbs.includes("approve")) {
          expect(listed).toBe(sizes.length);
          for (const [i, n] of sizes.entries()) expect(text).toContain(`{"i":${i},"note":"${note(n)}"}`);
          const last =
            chat === undefined ? undefined : chat ? t(lang, "line.chat_yes") : t(lang, "line.chat_no", { command });
          if (last) expect(lines.at(-1)).toBe(last);
        } else {
          expect(verbs).toEqual(["reject"]);
          if (listed < sizes.length)
            expect(lines.at(-2)).toBe(t(lang, "line.effects_more", { count: sizes.length - listed }));
          expect(lines.at(-1)).toBe(t(lang, "line.chat_cut", { total: sizes.length, command }));
        }
      }),
      { numRuns: 150 },
    );
  });
});
