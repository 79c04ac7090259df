/**
 * `trestle view` as a user runs it (docs/CLI.md, docs/VIEW.md): with one owner key in the home it
 * needs no flag, prints the URL to open, serves the page and the stream there, follows every table
 * the home holds a head for, and stops on Ctrl-C with exit 0. Without a key, with several, or with
 * a port out of range it says what to do (exit 2).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "../../support/cli.js";
import { uniqueTable } from "../../support/client-table.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";

let relay: LocalRelay;

beforeAll(async () => {
  relay = await sharedRelay();
}, 60_000);

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const home = () => mkdtempSync(join(tmpdir(), "trestle-view-cli-"));

/** The first events of the window's stream at `url` (the printed URL, token in its fragment). */
async function firstEvents(url: string, count: number): Promise<Record<string, unknown>[]> {
  const { origin, hash } = new URL(url);
  const response = await fetch(`${origin}/api/stream`, { headers: { "x-trestle-token": hash.slice(1) } });
  const reader = response.body!.getReader();
  let text = "";
  while (text.split("\n").length <= count) text += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  return text
    .split("\n")
    .slice(0, count)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

// A spawned `view` process starts and loads the bundle in each of the first two tests: a slow machine is not a failure.
describe("trestle view", { timeout: 30_000 }, () => {
  it("with one owner key needs no flag: prints the URL, serves the page and follows the tables the home holds heads for, until Ctrl-C", async () => {
    const dir = home();
    const t = cli(dir, relay.url);
    const key = await t.json(["keygen", "--owner", "mira"]);
    const table = uniqueTable("cli-view");
    const config = {
      id: table,
      topic: "A bike, second hand",
      owners: { mira: { public_key: key.body!.public_key } },
      topology: { kind: "open" },
      termination: { any: [{ max_entries: 50 }] },
    };
    writeFileSync(join(dir, "config.json"), JSON.stringify(config));
    expect((await t.run(["create", join(dir, "config.json"), "--owner", "mira"])).code).toBe(0);

    const view = t.start(["view"]);
    const [, url] = await view.printed(/^ {2}(http:\/\/127\.0\.0\.1:\d+\/#[A-Za-z0-9_-]{43})$/m);
    expect(view.child.exitCode).toBeNull();
    const page = await fetch(new URL(url!).origin + "/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("connect-src 'self'");
    expect(await page.text()).toContain("<title>trestle · principal window</title>");
    const [hello, tableEvent] = await firstEvents(url!, 2);
    expect(hello).toMatchObject({ type: "hello", owner: "mira", owner_key: key.body!.public_key, relay: relay.url });
    expect(tableEvent).toMatchObject({ type: "table", summary: { table } });
    view.child.kill("SIGINT");
    expect((await view.done).code).toBe(0);
  });

  it("prints the URL, port, owner and relay as JSON with --json, on the port asked for", async () => {
    const dir = home();
    const t = cli(dir, relay.url);
    await t.run(["keygen", "--owner", "mira"]);
    const port = await freePort();
    const view = t.start(["view", "--owner", "mira", "--port", String(port), "--json"]);
    const [line] = await view.printed(/^\{.*\}$/m);
    expect(JSON.parse(line!)).toEqual({
      url: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:${port}/#`)),
      port,
      owner: "mira",
      relay: relay.url,
    });
    view.child.kill("SIGTERM");
    expect((await view.done).code).toBe(0);
  });

  describe("when it cannot tell whose window to open, or is given a bad flag", () => {
    it("asks for a key when the home has none, and for --owner when it has several", async () => {
      const dir = home();
      const t = cli(dir, relay.url);
      const none = await t.run(["view"]);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain("no owner key in");
      await t.run(["keygen", "--owner", "mira"]);
      await t.run(["keygen", "--owner", "noor"]);
      const two = await t.run(["view"]);
      expect(two.code).toBe(2);
      expect(two.stderr).toContain("this home has 2 owner keys: name one with --owner (mira, noor)");
    });

    it("refuses a port out of range and a table id the protocol does not allow", async () => {
      const run = await cli(home(), relay.url).run(["view", "--owner", "mira", "--port", "70000"]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("--port must be at most 65535");
      const dir = home();
      await cli(dir, relay.url).run(["keygen", "--owner", "mira"]);
      const bad = await cli(dir, relay.url).run(["view", "--table", "../Not A Table"]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--table "../Not A Table" is not a table id');
    });
  });
});
