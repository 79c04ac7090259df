/**
 * A seat and its own owner from the command line (docs/CLI.md): `ask` refused at once when the
 * owner cannot answer, `ask` answered by `answer` while the owner's `watch --owner` session is
 * live, and `instruct` read back by the seat with `instructions`, framed as the owner's.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "../../support/cli.js";
import { uniqueTable } from "../../support/client-table.js";
import { sharedRelay } from "../../support/local-relay.js";

let sara: ReturnType<typeof cli>;
const table = uniqueTable("ask-cli");
const as = ["--table", table, "--seat", "sara-bot"];

beforeAll(async () => {
  const relay = await sharedRelay();
  sara = cli(mkdtempSync(join(tmpdir(), "trestle-ask-")), relay.url);
  expect((await sara.run(["keygen", "--owner", "sara"])).code).toBe(0);
  expect((await sara.run(["room", "create", "--table", table, "--topic", "A stroller", "--owner", "sara"])).code).toBe(0);
  expect((await sara.run(["join", "--table", table, "--owner", "sara", "--seat", "sara-bot"])).code).toBe(0);
}, 60_000);

describe("asking the owner from the command line", { timeout: 60_000 }, () => {
  describe("when nobody can answer", () => {
    it("refuses the question at once with E_NO_ANSWERER (exit 3)", async () => {
      const refused = await sara.run(["ask", ...as, "Accept 2,800?"]);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain("E_NO_ANSWERER");
    });
  });

  it("is answered with the owner key while the owner watches, and the seat gets it marked verified", async () => {
    const watching = sara.start(["watch", "--table", table, "--owner", "sara"]);
    await watching.printed(/watching .* as owner sara/);
    const asking = sara.start(["ask", ...as, "Accept 2,800?", "--choice", "yes", "--choice", "no", "--wait", "120"]);
    const [, id] = await asking.printed(/asked your owner: question ([A-Za-z0-9_-]+)/);
    const listed = await sara.json(["answer", "--list", "--table", table, "--owner", "sara"]);
    expect(listed.body!.questions).toMatchObject([{ question: { question: id, seat: "sara-bot", choices: ["yes", "no"] }, state: "open" }]);
    const answered = await sara.run(["answer", id!, "no", "--table", table, "--owner", "sara"]);
    expect(answered.code).toBe(0);
    const asked = await asking.done;
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain("your owner answered (verified: signed with your owner's key)");
    expect(asked.stdout).toContain("‖   no");
    const again = await sara.run(["answer", id!, "yes", "--table", table, "--owner", "sara"]);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain("E_ALREADY_RESOLVED");
    watching.child.kill("SIGINT");
    await watching.done;
  });

  it("carries an instruction to the seat alone, framed as its owner's", async () => {
    expect((await sara.run(["instruct", "--table", table, "--owner", "sara", "--seat", "sara-bot", "Do not go past 2,900."])).code).toBe(0);
    const read = await sara.run(["instructions", ...as]);
    expect(read.stdout.split("\n").slice(0, 2)).toEqual(["‖ instruction #1 from your owner (verified: signed with your owner's key):", "‖   Do not go past 2,900."]);
  });
});
