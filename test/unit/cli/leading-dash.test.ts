/**
 * Values that start with "-" from the command line (docs/CLI.md "Global flags and environment"):
 * an owner public key is base64url and starts with "-" one time in 64, so `market admit --key`
 * takes it as the flag's value and the member joins with it; a question id another client drew
 * with a leading "-" is answered after `--`, and without it the usage error says so.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createKeyFile, HttpClient, ownerKeyPath, readKeyFile, seatKeyPath } from "../../../src/client/node.js";
import { fromBase64url, signQuestion } from "../../../src/protocol/index.js";
import { cli } from "../../support/cli.js";
import { uniqueTable } from "../../support/client-table.js";
import { sharedRelay } from "../../support/local-relay.js";

type Cli = ReturnType<typeof cli>;
let relayUrl: string;
let hana: Cli;
let ana: Cli;
let anaHome: string;
/** A seed whose Ed25519 public key starts with "-". */
const DASHED_SEED = "BAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQ";

beforeAll(async () => {
  relayUrl = (await sharedRelay()).url;
  hana = cli(mkdtempSync(join(tmpdir(), "trestle-dash-hana-")), relayUrl);
  anaHome = mkdtempSync(join(tmpdir(), "trestle-dash-ana-"));
  ana = cli(anaHome, relayUrl);
  expect((await hana.run(["keygen", "--owner", "hana"])).code).toBe(0);
}, 60_000);

describe("an argument that starts with a dash", { timeout: 60_000 }, () => {
  it("is the value of --key: a market admits an owner key starting with '-' and its owner joins", async () => {
    const market = uniqueTable("m-dash");
    const key = (
      await createKeyFile(ownerKeyPath(anaHome, "ana"), "owner", "ana", { seed: fromBase64url(DASHED_SEED) })
    ).signer.publicKeyText;
    expect(key.startsWith("-")).toBe(true);
    expect(
      (
        await hana.run([
          "market",
          "create",
          "--table",
          market,
          "--owner",
          "hana",
          "--topic",
          "Swap",
          "--categories",
          "toys",
        ])
      ).code,
    ).toBe(0);
    const admitted = await hana.json(["market", "admit", "--table", market, "--owner", "hana", "--key", key]);
    expect(admitted.code, admitted.stdout + admitted.stderr).toBe(0);
    expect(admitted.body).toMatchObject({ table: market, owner_key: key });
    const joined = await ana.run([
      "market",
      "join",
      "--table",
      market,
      "--invite",
      admitted.body!.invite,
      "--owner",
      "ana",
      "--seat",
      "ana-bot",
    ]);
    expect(joined.code, joined.stderr).toBe(0);
    expect(joined.stdout).toContain(`ana-bot joined market ${market} for ana`);
  });

  it("is a question id answered after --, and without it a usage error that says so", async () => {
    const table = uniqueTable("dash-ask");
    const saraHome = mkdtempSync(join(tmpdir(), "trestle-dash-sara-"));
    const sara = cli(saraHome, relayUrl);
    expect((await sara.run(["keygen", "--owner", "sara"])).code).toBe(0);
    expect(
      (await sara.run(["room", "create", "--table", table, "--topic", "A stroller", "--owner", "sara"])).code,
    ).toBe(0);
    expect((await sara.run(["join", "--table", table, "--owner", "sara", "--seat", "sara-bot"])).code).toBe(0);
    const watching = sara.start(["watch", "--table", table, "--owner", "sara"]);
    await watching.printed(/watching .* as owner sara/);
    // Another client drew this id; trestle's own never start with "-".
    const question = "-QdashedQuestionId0123456";
    const seatKey = await readKeyFile(seatKeyPath(saraHome, "sara-bot"), "seat");
    const ts = Date.now();
    await new HttpClient({ url: relayUrl }).askOwner(
      table,
      await signQuestion(seatKey.signer, {
        table,
        seat: "sara-bot",
        question,
        text: "Accept 2,800?",
        choices: ["yes", "no"],
        deadline: ts + 120_000,
        ts,
      }),
    );
    const bare = await sara.run(["answer", question, "no", "--table", table, "--owner", "sara"]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('an argument that starts with "-" goes after --');
    const answered = await sara.run(["answer", "--table", table, "--owner", "sara", "--json", "--", question, "no"]);
    expect(answered.code, answered.stdout + answered.stderr).toBe(0);
    expect(JSON.parse(answered.stdout)).toMatchObject({ verified: true, answer: { question, value: "no" } });
    watching.child.kill("SIGINT");
    await watching.done;
  });
});
