/** The docs name what the code does: every error code in SPEC §9 with its status, and the README's quick start. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../../src/protocol/errors.js";

const spec = readFileSync(new URL("../../../docs/SPEC.md", import.meta.url), "utf8");
const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");

describe("docs", () => {
  it("lists every error code in SPEC §9 with its HTTP status, and no others", () => {
    const rows = [...spec.matchAll(/^\| `(E_[A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(Object.entries(ERROR_CODES).map(([code, v]) => [code, v.http])));
  });

  it("keeps the README quick start: one command to run the relay, one to test", () => {
    expect(readme).toContain("npm install && npm start");
    expect(readme).toContain("npm test");
  });
});
