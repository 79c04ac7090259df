/**
 * Rooms from the command line (docs/CLI.md "Rooms"): two owners on two machines (two homes) run
 * the real `trestle` process against a real relay: create, invite by link, join, mandates, offers
 * and counters, a refusal by the mandate, a held accept rejected at the gate (never sent), one
 * approved and sent once, the close, the journal, and an export that verifies CLEAN.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "../../support/cli.js";
import { uniqueTable } from "../../support/client-table.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";

let relay: LocalRelay;
let sara: ReturnType<typeof cli>;
let ben: ReturnType<typeof cli>;
let benHome: string;
const table = uniqueTable("r-cli");
let link = "";

beforeAll(async () => {
  relay = await sharedRelay();
  sara = cli(mkdtempSync(join(tmpdir(), "trestle-sara-")), relay.url);
  benHome = mkdtempSync(join(tmpdir(), "trestle-ben-"));
  ben = cli(benHome, relay.url);
}, 60_000);

const as = (seat: string) => ["--table", table, "--seat", seat];

/** The seq of the newest live offer `room show` lists. */
async function newestOffer(side: ReturnType<typeof cli>, seat: string): Promise<number> {
  const { body } = await side.json(["room", "show", ...as(seat)]);
  return (body!.offers as { seq: number }[]).at(-1)!.seq;
}

describe("a room from the command line", { timeout: 60_000 }, () => {
  it("creates the room, seats the seller and signs her mandate", async () => {
    expect((await sara.run(["keygen", "--owner", "sara"])).code).toBe(0);
    const created = await sara.run([
      "room",
      "create",
      "--table",
      table,
      "--topic",
      "A second-hand stroller",
      "--owner",
      "sara",
    ]);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`created room ${table}`);
    expect((await sara.run(["join", "--table", table, "--owner", "sara", "--seat", "sara-bot"])).code).toBe(0);
    const set = await sara.run([
      "mandate",
      "set",
      ...as("sara-bot"),
      "--owner",
      "sara",
      "--currency",
      "TWD",
      "--cap",
      "400000",
      "--floor",
      "240000",
      "--never-disclose",
      "2400",
    ]);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain("cap 4,000.00 TWD, floor 2,400.00 TWD");
  });

  it("invites with a link that carries the relay key, and the buyer joins by it from another home", async () => {
    const { code, body } = await sara.json(["room", "invite", "--table", table, "--owner", "sara", "--ttl", "2h"]);
    expect(code).toBe(0);
    link = body!.link;
    expect(link).toMatch(new RegExp(`^${relay.url}/invites#code=[A-Z2-9]{4}-[A-Z2-9]{4}&relay_key=`));
    expect((await ben.run(["keygen", "--owner", "ben"])).code).toBe(0);
    const joined = await ben.run(["room", "join", link, "--owner", "ben", "--seat", "ben-bot"]);
    expect(joined.code).toBe(0);
    expect(joined.stdout).toContain(`ben-bot joined room ${table} for ben`);
    expect(joined.stderr).toContain("pinned relay");
    expect(
      (
        await ben.run([
          "mandate",
          "set",
          ...as("ben-bot"),
          "--owner",
          "ben",
          "--currency",
          "TWD",
          "--cap",
          "300000",
          "--never-disclose",
          "3000",
          "--require-confirm",
          "accept",
        ])
      ).code,
    ).toBe(0);
  });

  it("refuses a second join with the same link (the code is spent)", async () => {
    const again = await ben.run(["room", "join", link, "--owner", "ben", "--seat", "ben-2"]);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain("E_INVITE");
  });

  it("negotiates: offer, counter, and a say the buyer's mandate refuses before signing", async () => {
    expect(
      (
        await sara.run([
          "room",
          "offer",
          ...as("sara-bot"),
          "--amount",
          "360000",
          "--currency",
          "TWD",
          "--text",
          "stroller, folds flat",
        ])
      ).code,
    ).toBe(0);
    const shown = await ben.run(["room", "show", ...as("ben-bot")]);
    expect(shown.stdout).toMatch(
      /offer #\d+ [0-9a-f]{12}… by sara-bot: 3,600\.00 TWD \(360000 minor units\) for "stroller, folds flat", no expiry/,
    );
    expect(
      (
        await ben.run([
          "room",
          "counter",
          String(await newestOffer(ben, "ben-bot")),
          ...as("ben-bot"),
          "--amount",
          "250000",
          "--currency",
          "TWD",
        ])
      ).code,
    ).toBe(0);
    const leak = await ben.run(["say", ...as("ben-bot"), "I can go up to 3000, no more"]);
    expect(leak.code).toBe(3);
    expect(leak.stderr).toMatch(/E_MANDATE.*never_disclose entry #1/);
    const floor = await sara.run([
      "room",
      "counter",
      String(await newestOffer(sara, "sara-bot")),
      ...as("sara-bot"),
      "--amount",
      "230000",
      "--currency",
      "TWD",
    ]);
    expect(floor.code).toBe(3);
    expect(floor.stderr).toMatch(/E_MANDATE.*below the mandate's floor/);
    expect(
      (
        await sara.run([
          "room",
          "counter",
          String(await newestOffer(sara, "sara-bot")),
          ...as("sara-bot"),
          "--amount",
          "280000",
          "--currency",
          "TWD",
          "meet in the middle?",
        ])
      ).code,
    ).toBe(0);
  });

  describe("when the currency is not an ISO 4217 code as written", () => {
    it.each([
      ["in lower case", "usd", /--currency "usd" is not an ISO 4217 code; did you mean USD\?/],
      ["unknown", "XYZ", /--currency "XYZ" is not an ISO 4217 code \(such as TWD, USD, JPY\)/],
    ])(
      "refuses an offer with a currency %s as a usage error (exit 2), sending nothing",
      async (_, currency, message) => {
        const before = await newestOffer(sara, "sara-bot");
        const run = await sara.run(["room", "offer", ...as("sara-bot"), "--amount", "300000", "--currency", currency]);
        expect(run.code).toBe(2);
        expect(run.stderr).toMatch(message);
        expect(await newestOffer(sara, "sara-bot")).toBe(before);
      },
    );
  });

  it("answers a send of a held message the owner rejected with E_GATE, and of a hash never held with a usage error", async () => {
    const offer = String(await newestOffer(ben, "ben-bot"));
    const held = await ben.json(["room", "accept", offer, ...as("ben-bot")]);
    const hash = String(held.body!.error.details.message_sha256);
    expect((await ben.run(["gate", "reject", hash.slice(0, 12), ...as("ben-bot"), "--owner", "ben"])).code).toBe(0);
    const rejected = await ben.run(["gate", "send", hash.slice(0, 12), ...as("ben-bot")]);
    expect(rejected.code).toBe(3);
    expect(rejected.stderr).toMatch(
      /error E_GATE: the owner rejected held message [0-9a-f]{16}\S*; it will never be sent/,
    );
    const unknown = await ben.run(["gate", "send", "00000000ffff", ...as("ben-bot")]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error E_USAGE: no message 00000000ffff was ever held for this seat");
  });

  it("refuses a secret split over two trestle processes: the second say is refused, read with the first from the ledger", async () => {
    expect((await ben.run(["say", ...as("ben-bot"), "my cap starts with thirty"])).code).toBe(0);
    const second = await ben.run(["say", ...as("ben-bot"), "hundred"]);
    expect(second.code).toBe(3);
    expect(second.stderr).toMatch(/E_MANDATE.*never_disclose entry #1 when read with this seat's last messages/);
  });

  it("holds the accept until the owner approves its hash at the gate, then sends it and closes with a deal", async () => {
    const offer = String(await newestOffer(ben, "ben-bot"));
    const held = await ben.run(["room", "accept", offer, ...as("ben-bot")]);
    expect(held.code).toBe(3);
    expect(held.stderr).toContain("E_HELD");
    expect(held.stderr).toContain("trestle gate approve");
    // The owner sees what the accept binds: the offer it answers, named and in full, from the verified ledger.
    const shown = await ben.run(["gate", "list", ...as("ben-bot")]);
    expect(shown.stdout).toMatch(
      new RegExp(
        `^[0-9a-f]{16}  require_confirm  accept offer #${offer} by sara-bot: 2,800\\.00 TWD \\(280000 minor units\\), no expiry$`,
        "m",
      ),
    );
    const list = await ben.json(["gate", "list", ...as("ben-bot")]);
    const hash = (list.body as unknown as { message_sha256: string }[])[0]!.message_sha256;
    expect((await ben.run(["gate", "approve", hash.slice(0, 12), ...as("ben-bot"), "--owner", "ben"])).code).toBe(0);
    const sent = await ben.run(["gate", "send", hash.slice(0, 12), ...as("ben-bot")]);
    expect(sent.code).toBe(0);
    expect(sent.stdout).toContain("held message written as entry");
    const seq = /entry #(\d+)/.exec(sent.stdout)![1];
    const again = await ben.json(["gate", "send", hash.slice(0, 12), ...as("ben-bot")]);
    expect(again.code).toBe(3);
    expect(again.body!.error).toMatchObject({
      code: "E_GATE",
      details: { reason: "spent" },
      message: expect.stringContaining(`already sent as entry #${seq}`),
    });
    const reapproved = await ben.json(["gate", "approve", hash.slice(0, 12), ...as("ben-bot"), "--owner", "ben"]);
    expect(reapproved.code).toBe(3);
    expect(reapproved.body!.error).toMatchObject({ code: "E_GATE", details: { reason: "not_pending", state: "sent" } });
    const closed = await sara.run(["room", "close", ...as("sara-bot"), "--deal", offer]);
    expect(closed.code).toBe(0);
    expect((await ben.run(["room", "show", ...as("ben-bot")])).stdout).toMatch(/outcome: deal on offer [0-9a-f]{12}…/);
  });

  it("keeps the buyer's journal: the refused say (without the secret), the held accept, the approval and the send", async () => {
    expect(
      (await ben.run(["rationale", ...as("ben-bot"), "Accepted 2,800: under my cap and the stroller is nearly new"]))
        .code,
    ).toBe(0);
    expect((await ben.run(["tell-owner", ...as("ben-bot"), "Deal at 2,800.00 TWD."])).code).toBe(0);
    const journal = await ben.run(["journal", ...as("ben-bot")]);
    expect(journal.code).toBe(0);
    expect(journal.stdout).toMatch(/REFUSED say \(disclosure: disclose\)/);
    expect(journal.stdout).toMatch(/held [0-9a-f]{16} \(require_confirm\)/);
    expect(journal.stdout).toMatch(/owner approved/);
    expect(journal.stdout).toMatch(/sent accept as entry #\d+ \(spending an approval\)/);
    expect(journal.stdout).toContain("rationale: Accepted 2,800");
    expect(journal.stdout).toContain("note to owner: Deal at 2,800.00 TWD.");
    expect(journal.stdout).not.toContain("3000");
  });

  it("exports a ledger that verifies CLEAN and holds neither the floor nor the cap", async () => {
    const out = join(benHome, "room.jsonl");
    expect((await ben.run(["export", "--table", table, "--owner", "ben", "--out", out])).code).toBe(0);
    const verified = await ben.run(["verify", out]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^CLEAN/);
    const text = readFileSync(out, "utf8");
    expect(text).not.toContain("Accepted 2,800");
    expect(text).not.toContain("Deal at 2,800.00 TWD.");
  });

  describe("when a link cannot be trusted", () => {
    it("refuses a link whose relay key is not the relay's (exit 7, nothing joined)", async () => {
      const forged = link.replace(/relay_key=[A-Za-z0-9_-]+/, "relay_key=11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo");
      const cleo = cli(mkdtempSync(join(tmpdir(), "trestle-cleo-")), relay.url);
      expect((await cleo.run(["keygen", "--owner", "cleo"])).code).toBe(0);
      const run = await cleo.run(["room", "join", forged, "--owner", "cleo", "--seat", "cleo-bot"]);
      expect(run.code).toBe(7);
      expect(run.stderr).toContain("E_RELAY_KEY");
    });
  });
});
