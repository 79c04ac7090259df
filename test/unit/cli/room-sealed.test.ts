/**
 * An end-to-end encrypted room with a sealed-bid auction from the command line (docs/CLI.md
 * "Rooms", docs/ROOMS.md): two owners on two machines run the real `trestle` process against a
 * real relay: create --e2e, the key carried only by the invite link, messages sealed on the wire
 * and read in the clear on the other machine, an auction opened, bid (a held bid shown to its owner
 * with its amount), revealed and settled, the
 * room closed on it, and an export that verifies CLEAN and holds neither message nor key.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseK } from "../../../src/cli/commands/room-auction.js";
import { roomKeyPath } from "../../../src/owner/index.js";
import { cli } from "../../support/cli.js";
import { uniqueTable } from "../../support/client-table.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";

let relay: LocalRelay;
let sara: ReturnType<typeof cli>;
let ben: ReturnType<typeof cli>;
let saraHome: string;
let benHome: string;
const table = uniqueTable("r-sealed");
let auction = "";

beforeAll(async () => {
  relay = await sharedRelay();
  saraHome = mkdtempSync(join(tmpdir(), "trestle-sara-"));
  benHome = mkdtempSync(join(tmpdir(), "trestle-ben-"));
  sara = cli(saraHome, relay.url);
  ben = cli(benHome, relay.url);
}, 60_000);

const as = (seat: string) => ["--table", table, "--seat", seat];

describe("k for an auction", () => {
  it("is a fraction or a decimal in [0, 1]", () => {
    expect(parseK("1/2")).toEqual({ num: 1, den: 2 });
    expect(parseK("0.25")).toEqual({ num: 25, den: 100 });
    expect(parseK("1")).toEqual({ num: 1, den: 1 });
    expect(() => parseK("3/2")).toThrow(/k is at most 1/);
    expect(() => parseK("half")).toThrow(/--k takes a fraction/);
  });
});

/** Ben lists what the gate holds (one message, shown as `shown`), approves it with his owner key and sends it. */
async function approveHeld(shown: string): Promise<void> {
  const list = await ben.run(["gate", "list", ...as("ben-bot")]);
  expect(list.stdout).toContain(shown);
  const hash = /^([0-9a-f]{16}) /m.exec(list.stdout)![1]!;
  expect((await ben.run(["gate", "approve", hash, ...as("ben-bot"), "--owner", "ben"])).code).toBe(0);
  expect((await ben.run(["gate", "send", hash, ...as("ben-bot")])).code).toBe(0);
}

describe("an end-to-end encrypted room from the command line", { timeout: 60_000 }, () => {
  it("creates the room with its key in the creator's home, and invites with a link that carries it", async () => {
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
      "--e2e",
    ]);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("end-to-end encrypted");
    expect(existsSync(roomKeyPath(saraHome, table))).toBe(true);
    expect((await sara.run(["join", "--table", table, "--owner", "sara", "--seat", "sara-bot"])).code).toBe(0);
    expect(
      (
        await sara.run([
          "mandate",
          "set",
          ...as("sara-bot"),
          "--owner",
          "sara",
          "--currency",
          "TWD",
          "--cap",
          "500000",
          "--floor",
          "240000",
          "--never-disclose",
          "2400",
        ])
      ).code,
    ).toBe(0);
    const invite = await sara.json(["room", "invite", "--table", table, "--owner", "sara"]);
    const link = String(invite.body!.link);
    expect(link).toMatch(/#code=[A-Z2-9]{4}-[A-Z2-9]{4}&relay_key=[A-Za-z0-9_-]{43}&room_key=[A-Za-z0-9_-]{43}$/);
    expect((await ben.run(["keygen", "--owner", "ben"])).code).toBe(0);
    expect((await ben.run(["room", "join", link, "--owner", "ben", "--seat", "ben-bot"])).code).toBe(0);
    expect(readFileSync(roomKeyPath(benHome, table), "utf8")).toBe(readFileSync(roomKeyPath(saraHome, table), "utf8"));
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
          "--require-confirm",
          "mechanism",
        ])
      ).code,
    ).toBe(0);
  });

  it("seals what a seat says and opens it on the other machine", async () => {
    expect((await sara.run(["say", ...as("sara-bot"), "Barely used, rain cover included."])).code).toBe(0);
    const read = await ben.run(["read", ...as("ben-bot")]);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain("Barely used, rain cover included.");
    const leak = await sara.run(["say", ...as("sara-bot"), "my floor is 2400"]);
    expect(leak.code).toBe(3);
    expect(leak.stderr).toMatch(/E_MANDATE.*never_disclose entry #1/);
  });

  it("runs a sealed-bid auction to a deal at the clearing price and closes the room on it", async () => {
    const opened = await sara.json([
      "room",
      "auction",
      ...as("sara-bot"),
      "--buyer",
      "ben-bot",
      "--seller",
      "sara-bot",
      "--currency",
      "TWD",
      "--k",
      "1/2",
      "--commit-for",
      "10m",
      "--reveal-for",
      "10m",
    ]);
    expect(opened.code).toBe(0);
    auction = String(opened.body!.seq);
    expect((await ben.run(["room", "bid", auction, ...as("ben-bot"), "--amount", "300001"])).stderr).toMatch(
      /E_MANDATE.*above the mandate's cap/,
    );
    // Ben's mandate holds every mechanism entry: he sees the bid the commitment hides, and approves it.
    expect((await ben.run(["room", "bid", auction, ...as("ben-bot"), "--amount", "300000"])).stderr).toContain(
      "E_HELD",
    );
    await approveHeld(
      `mechanism commits a sealed bid of 3,000.00 TWD (300000 minor units) as the buyer in auction #${auction}; the room sees only its hash`,
    );
    // Her floor is on her never_disclose list, and a bid is public once revealed: bidding it is refused.
    expect((await sara.run(["room", "bid", auction, ...as("sara-bot"), "--amount", "240000"])).stderr).toMatch(
      /E_MANDATE.*never_disclose entry #1 at \$\.reveals\.bid/,
    );
    expect((await sara.run(["room", "bid", auction, ...as("sara-bot"), "--amount", "250000"])).code).toBe(0);
    expect((await ben.run(["room", "reveal", auction, ...as("ben-bot")])).stderr).toContain("E_HELD");
    await approveHeld(`mechanism reveals a bid of 3,000.00 TWD (300000 minor units) in auction #${auction}`);
    expect((await sara.run(["room", "reveal", auction, ...as("sara-bot")])).code).toBe(0);
    const shown = await ben.run(["room", "show", ...as("ben-bot")]);
    expect(shown.stdout).toMatch(
      /auction #\d+ [0-9a-f]{12}…: ben-bot buys from sara-bot in TWD, k 1\/2: settled at entry #\d+, deal at 2,750\.00 TWD/,
    );
    expect((await ben.run(["room", "close", ...as("ben-bot"), "--auction", auction])).code).toBe(0);
    expect((await sara.run(["room", "show", ...as("sara-bot")])).stdout).toMatch(
      /outcome: deal in auction [0-9a-f]{12}…/,
    );
    const journal = await ben.run(["journal", ...as("ben-bot")]);
    expect(journal.stdout).toMatch(/sealed bid of 3,000\.00 TWD as the buyer/);
  });

  it("exports a ledger that verifies CLEAN and holds neither the messages nor the room key", async () => {
    const out = join(benHome, "room.jsonl");
    expect((await ben.run(["export", "--table", table, "--owner", "ben", "--out", out])).code).toBe(0);
    const verified = await ben.run(["verify", out]);
    expect(verified.stdout).toMatch(/^CLEAN/);
    const text = readFileSync(out, "utf8");
    expect(text).not.toContain("Barely used");
    expect(text).not.toContain(JSON.parse(readFileSync(roomKeyPath(benHome, table), "utf8")).key);
  });
});
