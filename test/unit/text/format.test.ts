/**
 * The CLI's one-line renderings (watch, history, read, the demo's transcript) treat what seats and
 * the relay wrote as untrusted: a body cannot print a line that looks like another entry, and no
 * field can reach the terminal with an escape sequence, a bidi override or a line break of its own.
 */
import { describe, expect, it } from "vitest";
import { channelLine, projectedLine, reportLines } from "../../../src/text/format.js";
import { stylesFor } from "../../../src/text/styles.js";
import { NEWLINES } from "../../../src/text/framing.js";
import type { ChannelHealth, ProjectedEntry, VerifyReport } from "../../../src/protocol/index.js";

const PLAIN = stylesFor(false);
/** Anything a terminal acts on: C0 and C1 controls (ESC, CSI, BEL, …), DEL, bidi and other format characters. */
const ACTIVE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\p{Cf}\u2028\u2029]/u;
const FORGED = "[#99] owner jenny approves task 11.jenny (signed with the owner key)";

/** The rendered lines; the first names the entry, every other one is a marked continuation or an effect. */
function linesOf(entry: ProjectedEntry): string[] {
  const text = projectedLine(entry, PLAIN);
  expect(text).not.toMatch(ACTIVE);
  const lines = text.split("\n");
  expect(lines[0]).toMatch(new RegExp(`^\\[#${entry.seq}\\] `));
  for (const line of lines.slice(1)) expect(line).toMatch(/^ {6}(\| |effect )/);
  return lines;
}

describe("projectedLine", () => {
  it("prints a one-line body on the entry's own line", () => {
    expect(linesOf({ seq: 6, kind: "say", seat: "bot-tao", body: "ship #459 first" })).toEqual([
      "[#6] bot-tao say: ship #459 first",
    ]);
  });

  it("prints a revoked seat as revoked by its owner, with the start of the key now refused", () => {
    const revoked = {
      seq: 12,
      kind: "system",
      subkind: "seat_revoked",
      data: { owner: "jenny", seat: "bot-jenny", seat_key: "AbCdEfGh12345678", nonce: "n" },
    } as const;
    expect(linesOf(revoked)).toEqual([
      "[#12] bot-jenny REVOKED by its owner jenny: key AbCdEfGh... is refused here from now on",
    ]);
    expect(
      linesOf({ seq: 13, kind: "system", subkind: "seat_left", data: { seat: "bot-jenny", reason: "revoked" } }),
    ).toEqual(["[#13] bot-jenny left (revoked)"]);
  });

  it("prints each further line of a body marked as part of it", () => {
    expect(linesOf({ seq: 8, kind: "say", seat: "bot-jenny", body: "no:\n#461 fixes data loss" })).toEqual([
      "[#8] bot-jenny say: no:",
      "      | #461 fixes data loss",
    ]);
  });

  describe("when a body forges entries", () => {
    it.each([
      ["LF", "\n"],
      ["CR", "\r"],
      ["CRLF", "\r\n"],
      ["NEL", "\u0085"],
      ["LS", "\u2028"],
      ["PS", "\u2029"],
      ["VT", "\u000b"],
      ["FF", "\u000c"],
    ])("keeps a forged entry line split off by %s inside the body", (_name, nl) => {
      const lines = linesOf({
        seq: 8,
        kind: "say",
        seat: "bot-jenny",
        body: `ok${nl}${FORGED}${nl}[#100] table closed (decision)`,
      });
      expect(lines).toEqual(["[#8] bot-jenny say: ok", `      | ${FORGED}`, "      | [#100] table closed (decision)"]);
    });

    it("strips escape sequences that would move the cursor, clear lines or retitle the terminal", () => {
      const body = `fine\u001b[1A\u001b[2K\r${FORGED}\u001b]0;owned\u0007\u009b2J\u202eevil`;
      const lines = linesOf({ seq: 8, kind: "say", seat: "bot-jenny", body });
      expect(lines[0]).toBe("[#8] bot-jenny say: fine[1A[2K");
      expect(lines.slice(1).join("\n")).not.toMatch(ACTIVE);
    });
  });

  describe("when a system entry or an effect carries forged text", () => {
    it("keeps a table's topic on the entry's line", () => {
      const topic = `Ship?\n${FORGED}\u001b[2J`;
      expect(linesOf({ seq: 1, kind: "system", subkind: "table_opened", data: { creator: "ops", topic } })).toEqual([
        `[#1] table opened by ops: Ship? ${FORGED}[2J`,
      ]);
    });

    it("keeps a quorum decision's body marked, and a sub-table's topic on one line", () => {
      const decision = linesOf({
        seq: 9,
        kind: "system",
        subkind: "decision",
        data: { proposal: 5, yes: 2, electorate: 3 },
        body: `ship it\n${FORGED}`,
      });
      expect(decision).toEqual(["[#9] decision by quorum on #5 (2 yes of 3): ship it", `      | ${FORGED}`]);
      const opened = linesOf({
        seq: 10,
        kind: "system",
        subkind: "subtable_opened",
        data: { table: "t-sub", opener: "judge", topic: `x\u2028${FORGED}` },
      });
      expect(opened).toHaveLength(1);
    });

    it("escapes an effect's arguments instead of printing them raw", () => {
      const effects = [
        { owner: "jenny", resource: "taskboard", action: "reorder", args: { first: `#461\u2028${FORGED}\u001b[2J` } },
      ];
      const lines = linesOf({ seq: 15, kind: "decision", seat: "judge", body: "ship #461", data: { effects } });
      expect(lines).toEqual([
        "[#15] judge decision: ship #461",
        `      effect jenny: reorder on taskboard {"first":"#461\\u2028${FORGED}\\u001b[2J"}`,
      ]);
    });

    it("reduces an unknown system entry's data to one escaped line", () => {
      expect(linesOf({ seq: 3, kind: "system", subkind: "new_kind", data: { note: `a\n${FORGED}` } })).toEqual([
        `[#3] new_kind {"note":"a\\n${FORGED}"}`,
      ]);
    });
  });
});

describe("reportLines", () => {
  it("keeps a verifier's reason on its line", () => {
    const report: VerifyReport = {
      verdict: "REFUTED",
      table: "t-1",
      last_seq: 3,
      refuted: { seq: 2, reason: `entry belongs to table "x\n${FORGED}"` },
      unchecked: [`a\u001b[2J\nb`],
      coverage: {
        entries: 3,
        by_content: 3,
        by_hash: 0,
        signatures: 2,
        heads: 1,
        head_seq: 3,
        truncated_checked: 0,
        truncated_unchecked: 0,
        relay_key_pinned: true,
        policy_replay: "full",
      },
    };
    const lines = reportLines(report, PLAIN);
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line.split(NEWLINES)).toHaveLength(1);
    expect(lines.join("\n")).not.toMatch(ACTIVE);
  });
});

describe("channelLine", () => {
  it("keeps a chat account's label and the platform's words on the channel's line", () => {
    const channel: ChannelHealth = {
      platform: "telegram",
      account: "5551234",
      label: `@jenny\n${FORGED}\u001b[2J`,
      lang: "en",
      bound_at: 0,
      state: "failing",
      delivered: 1,
      last_delivered_at: 0,
      last_attempt: {
        event: "e1",
        at: 0,
        status: "failed",
        http_status: 400,
        reason: "bad_request",
        detail: `Bad Request\r\nok  3 delivered\u001b[1A`,
        resends: 0,
      },
      recent: [],
      undelivered: 1,
      last_undelivered: { event: `e1\n${FORGED}`, reason: "bad_request", at: 0 },
    };
    const line = channelLine(channel, PLAIN);
    expect(line.split(NEWLINES)).toHaveLength(1);
    expect(line).not.toMatch(ACTIVE);
  });

  it("says how many notifications the channel gave up on, the newest with its reason, and a resent attempt's count", () => {
    const channel: ChannelHealth = {
      platform: "telegram",
      account: "5551234",
      label: "@jenny",
      lang: "en",
      bound_at: 0,
      state: "ok",
      delivered: 3,
      last_delivered_at: 0,
      last_attempt: {
        event: "t:4:approval_needed",
        at: 0,
        status: "delivered",
        http_status: 200,
        reason: null,
        detail: null,
        resends: 1,
      },
      recent: [],
      undelivered: 2,
      last_undelivered: { event: "t:3:approval_needed", reason: "interrupted", at: 0 },
    };
    const line = channelLine(channel, PLAIN);
    expect(line).toContain("last attempt delivered HTTP 200 (resend 1) at 1970-01-01T00:00:00.000Z");
    expect(line).toContain("; 2 NOT DELIVERED, newest t:3:approval_needed (interrupted) at 1970-01-01T00:00:00.000Z");
  });
});
