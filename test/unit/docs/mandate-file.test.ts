/**
 * docs/ROOMS.md "The mandate file": the table names every field the schemas hold and no other,
 * and a file made from that text alone (node:crypto's own Ed25519, no trestle signing code) is the
 * mandate the seat's guards trust; a file that breaks what the text says is refused with its reason.
 */
import { generateKeyPairSync, sign } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  MandateAllowanceSchema,
  MandateFileSchema,
  MandateMoneySchema,
  MandateSchema,
  readMandate,
  seatFiles,
} from "../../../src/owner/index.js";
import { canonicalize } from "../../../src/protocol/index.js";

const rooms = readFileSync(new URL("../../../docs/ROOMS.md", import.meta.url), "utf8");

/** The first column of the table that follows "**The mandate file**" in ROOMS.md. */
function documentedFields(): string[] {
  const start = rooms.indexOf("**The mandate file**");
  expect(start, "a mandate file section in ROOMS.md").toBeGreaterThanOrEqual(0);
  const rows = rooms.slice(rooms.indexOf("| field | type |", start)).split("\n");
  return rows
    .slice(
      2,
      rows.findIndex((r) => !r.startsWith("|")),
    )
    .map((r) => r.split("|")[1]!.trim().replace(/^`|`$/g, ""));
}

const keys = (schema: z.ZodObject, prefix = "") => Object.keys(schema.shape).map((k) => `${prefix}${k}`);

describe("docs/ROOMS.md, the mandate file", () => {
  it("documents every field of the file, the mandate, its money and its allowance, and no others", () => {
    const fields = [
      ...keys(MandateFileSchema),
      ...keys(MandateSchema, "mandate."),
      ...keys(MandateMoneySchema, "mandate.money."),
      ...keys(MandateAllowanceSchema, "mandate.allowance."),
    ];
    expect(documentedFields().sort()).toEqual(fields.sort());
  });

  describe("a file written from the text alone", () => {
    const path = seatFiles(mkdtempSync(join(tmpdir(), "trestle-mandate-doc-")), "r-stroller", "ben-bot").mandate;
    mkdirSync(dirname(path), { recursive: true });
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const ownerKey = publicKey.export({ format: "jwk" }).x!;
    const expected = { table: "r-stroller", seat: "ben-bot", ownerKey };
    const mandate = {
      version: 1,
      table: "r-stroller",
      seat: "ben-bot",
      owner: "ben",
      money: { currency: "TWD", cap: 300000 },
      never_disclose: ["3000"],
      require_confirm: ["accept"],
      paused: false,
      loosened: false,
      signed_at: 1767225600000,
    };
    const ed25519 = (text: string) => sign(null, Buffer.from(text, "utf8"), privateKey).toString("base64url");
    /** `sig` as the table says: Ed25519 over utf8("trestle/0.1 mandate\n") || JCS(mandate). */
    const sigOver = (value: unknown) => ed25519(`trestle/0.1 mandate\n${canonicalize(value)}`);

    it("is the mandate the guards trust, whatever its member order and whitespace", async () => {
      const reordered = Object.fromEntries(Object.entries(mandate).reverse());
      writeFileSync(
        path,
        `{"sig":"${sigOver(mandate)}",\n  "owner_key": "${ownerKey}", "mandate": ${JSON.stringify(reordered, null, 4)}}`,
        { mode: 0o600 },
      );
      expect(await readMandate(path, expected)).toMatchObject({ ok: true, mandate });
    });

    describe("when the file breaks what the text says", () => {
      const other = { ...mandate, seat: "sara-bot" };
      const extra = { ...mandate, note: "x" };
      it.each([
        ["an unknown member in the mandate", { mandate: extra, owner_key: ownerKey, sig: sigOver(extra) }, "malformed"],
        [
          "the cap as a string",
          {
            mandate: { ...mandate, money: { currency: "TWD", cap: "300000" } },
            owner_key: ownerKey,
            sig: sigOver(mandate),
          },
          "malformed",
        ],
        ["another seat's mandate", { mandate: other, owner_key: ownerKey, sig: sigOver(other) }, "malformed"],
        [
          "a signature over JSON.stringify instead of JCS",
          { mandate, owner_key: ownerKey, sig: ed25519(`trestle/0.1 mandate\n${JSON.stringify(mandate)}`) },
          "not_signed",
        ],
        [
          "a signature without the purpose prefix",
          { mandate, owner_key: ownerKey, sig: ed25519(canonicalize(mandate)) },
          "not_signed",
        ],
      ] as const)("refuses %s", async (_, file, reason) => {
        writeFileSync(path, JSON.stringify(file), { mode: 0o600 });
        expect(await readMandate(path, expected)).toMatchObject({ ok: false, reason });
      });

      it("refuses a good file when the ledger gives the seat another owner key", async () => {
        writeFileSync(path, JSON.stringify({ mandate, owner_key: ownerKey, sig: sigOver(mandate) }), { mode: 0o600 });
        const elsewhere = generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" }).x!;
        expect(await readMandate(path, { ...expected, ownerKey: elsewhere })).toMatchObject({
          ok: false,
          reason: "not_signed",
        });
      });
    });
  });
});
