/**
 * A seat and its own owner from the command line (docs/CLI.md): `ask` refused at once when the
 * owner cannot answer, `ask` answered by `answer` while the owner's `watch --owner` session is
 * live, and `instruct` read back by the seat with `instructions`, framed as the owner's; in an
 * end-to-end encrypted room the relay keeps every text sealed and the seat and owner read it plain.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { HttpClient, ownerKeyPath, readKeyFile, seatKeyPath } from "../../../src/client/node.js";
import { cli } from "../../support/cli.js";
import { uniqueTable } from "../../support/client-table.js";
import { sharedRelay } from "../../support/local-relay.js";

let sara: ReturnType<typeof cli>;
let relayUrl: string;
const home = mkdtempSync(join(tmpdir(), "trestle-ask-"));
const table = uniqueTable("ask-cli");
const as = ["--table", table, "--seat", "sara-bot"];

beforeAll(async () => {
  const relay = await sharedRelay();
  relayUrl = relay.url;
  sara = cli(home, relay.url);
  expect((await sara.run(["keygen", "--owner", "sara"])).code).toBe(0);
  expect((await sara.run(["room", "create", "--table", table, "--topic", "A stroller", "--owner", "sara"])).code).toBe(
    0,
  );
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
    expect(listed.body!.questions).toMatchObject([
      { question: { question: id, seat: "sara-bot", choices: ["yes", "no"] }, state: "open" },
    ]);
    const answered = await sara.run(["answer", id!, "no", "--table", table, "--owner", "sara"]);
    expect(answered.code).toBe(0);
    const asked = await asking.done;
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain("your owner answered (verified: signed with your owner's key)");
    expect(asked.stdout).toContain("‖| no");
    const again = await sara.run(["answer", id!, "yes", "--table", table, "--owner", "sara"]);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain("E_ALREADY_RESOLVED");
    watching.child.kill("SIGINT");
    await watching.done;
  });

  it("carries an instruction to the seat alone, framed as its owner's", async () => {
    expect(
      (await sara.run(["instruct", "--table", table, "--owner", "sara", "--seat", "sara-bot", "Do not go past 2,900."]))
        .code,
    ).toBe(0);
    const read = await sara.run(["instructions", ...as]);
    expect(read.stdout.split("\n").slice(0, 2)).toEqual([
      "‖ instruction #1 from your owner (verified: signed with your owner's key):",
      "‖| Do not go past 2,900.",
    ]);
  });
});

describe("asking the owner in an end-to-end encrypted room", { timeout: 60_000 }, () => {
  const sealed = uniqueTable("ask-cli-e2e");
  const here = ["--table", sealed, "--seat", "sara-bot"];

  it("seals the question, its choices, the answer and an instruction for the relay, and opens them for the seat and the owner", async () => {
    expect(
      (await sara.run(["room", "create", "--table", sealed, "--topic", "A stroller", "--owner", "sara", "--e2e"])).code,
    ).toBe(0);
    expect((await sara.run(["join", "--table", sealed, "--owner", "sara", "--seat", "sara-bot"])).code).toBe(0);
    const watching = sara.start(["watch", "--table", sealed, "--owner", "sara"]);
    await watching.printed(/watching .* as owner sara/);
    const asking = sara.start([
      "ask",
      ...here,
      "Accept 2,800 for the stroller?",
      "--choice",
      "yes",
      "--choice",
      "hold at 2,900",
      "--wait",
      "120",
    ]);
    const [, id] = await asking.printed(/asked your owner: question ([A-Za-z0-9_-]+)/);
    const listed = await sara.run(["answer", "--list", "--table", sealed, "--owner", "sara"]);
    expect(listed.stdout).toContain("Accept 2,800 for the stroller? [yes | hold at 2,900]");
    const wrong = await sara.run(["answer", id!, "maybe", "--table", sealed, "--owner", "sara"]);
    expect(wrong.stderr).toContain("E_SCHEMA");
    expect((await sara.run(["answer", id!, "hold at 2,900", "--table", sealed, "--owner", "sara"])).code).toBe(0);
    const asked = await asking.done;
    expect(asked.stdout).toContain("‖| hold at 2,900");
    watching.child.kill("SIGINT");
    await watching.done;
    expect(
      (
        await sara.run([
          "instruct",
          "--table",
          sealed,
          "--owner",
          "sara",
          "--seat",
          "sara-bot",
          "Do not go past 2,900.",
        ])
      ).code,
    ).toBe(0);
    expect((await sara.run(["instructions", ...here])).stdout).toContain("‖| Do not go past 2,900.");

    const relay = new HttpClient({ url: relayUrl });
    const owner = await readKeyFile(ownerKeyPath(home, "sara"), "owner");
    const seat = await readKeyFile(seatKeyPath(home, "sara-bot"), "seat");
    const { questions } = await relay.questions(sealed, { signer: owner.signer, as: { owner: "sara" } });
    const { instructions } = await relay.instructions(sealed, { signer: seat.signer, as: { seat: "sara-bot" } }, 0);
    const texts = [
      questions[0]!.question.text,
      ...questions[0]!.question.choices!,
      questions[0]!.answer!.value,
      instructions[0]!.text,
    ];
    expect(texts.every((t) => t.startsWith("e2e1:"))).toBe(true);
    expect(JSON.stringify({ questions, instructions })).not.toMatch(/2,800|2,900/);
  });
});
