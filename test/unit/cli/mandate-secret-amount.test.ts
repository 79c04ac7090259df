/** `trestle mandate set --secret-amount` (docs/CLI.md): the owner chooses whether an amount equal to a never_disclose number is refused (the default) or allowed. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "../../support/cli.js";

// Signing a mandate is local: no relay is asked, so the URL is never used.
const ben = cli(mkdtempSync(join(tmpdir(), "trestle-ben-")), "http://127.0.0.1:9");
const set = [
  "mandate",
  "set",
  "--table",
  "r-secret-amount",
  "--seat",
  "ben-bot",
  "--owner",
  "ben",
  "--never-disclose",
  "2400",
];

beforeAll(async () => {
  expect((await ben.run(["keygen", "--owner", "ben"])).code).toBe(0);
}, 60_000);

describe("trestle mandate set --secret-amount", { timeout: 60_000 }, () => {
  it("leaves secret_amount out by default (refuse), and signs allow when asked, marking the mandate loosened", async () => {
    const first = await ben.json(set);
    expect(first.code).toBe(0);
    expect(first.body!.mandate).not.toHaveProperty("secret_amount");
    const allowed = await ben.json([...set, "--secret-amount", "allow"]);
    expect(allowed.code).toBe(0);
    expect(allowed.body!.mandate).toMatchObject({ secret_amount: "allow", loosened: true });
    expect((await ben.run([...set, "--secret-amount", "allow"])).stdout).toContain(
      "1 never_disclose string (amounts equal to one allowed)",
    );
    expect((await ben.run([...set, "--secret-amount", "refuse", "--clear-loosened"])).stdout).not.toContain("allowed");
  });

  describe("when the value is neither refuse nor allow", () => {
    it.each(["ALLOW", "yes", ""])("is a usage error naming the allowed values (%j)", async (value) => {
      const run = await ben.run([...set, "--secret-amount", value]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("--secret-amount is refuse or allow");
    });
  });
});
