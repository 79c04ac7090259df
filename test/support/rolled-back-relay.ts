/**
 * A real relay rolled back as an outsider would try it (rollback.test.ts, witnessed-fork.test.ts):
 * its storage in a directory, a two-owner open table seated through the CLI in an "honest" home,
 * then the relay stopped, its storage and the honest home copied (the older copy), and later the
 * relay stopped again, its storage restored from that copy and started again.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { toBase64url } from "../../src/protocol/index.js";
import { cli } from "./cli.js";
import { uniqueTable } from "./client-table.js";
import { startRelay, type LocalRelay } from "./local-relay.js";

/** One relay with persisted storage and one table, for a file's tests; the relay key is fixed by `seedByte`, so it stays the same across restarts. */
export class RolledBackRelay {
  /** The table's id, unique to this file. */
  readonly table: string;
  /** A directory of the file's own, removed by `dispose`. */
  readonly work = mkdtempSync(join(tmpdir(), "trestle-rolled-back-"));
  /** The home of owners oa and ob, whose client sees the whole honest history. */
  readonly honestHome = join(this.work, "honest");
  /** The honest home as it was when the older copy was taken (`keepOldCopy`): a client that never saw more. */
  readonly otherHome = join(this.work, "other");
  private readonly storage = join(this.work, "storage");
  private readonly seed: string;
  private running: LocalRelay | undefined;

  constructor(name: string, seedByte: number) {
    this.table = uniqueTable(name);
    this.seed = toBase64url(new Uint8Array(32).fill(seedByte));
  }

  /** The running relay (throws when it is stopped). */
  get relay(): LocalRelay {
    if (!this.running) throw new Error("the relay is stopped");
    return this.running;
  }

  /** The CLI flags of `seat` at the table. */
  seat(name: string): string[] {
    return ["--table", this.table, "--seat", name];
  }

  /** Stops the relay if it runs and starts it again on the same storage; its URL (a new port). */
  async restart(): Promise<string> {
    await this.stop();
    this.running = await startRelay({ signingKey: this.seed, persist: this.storage });
    return this.running.url;
  }

  /** Stops the relay; its storage stays. */
  async stop(): Promise<void> {
    await this.running?.dispose();
    this.running = undefined;
  }

  /**
   * In the honest home: owners oa and ob, a table (open, seats sa of oa and sb of ob, async approvals,
   * `extra` merged into its config) created and joined on the running relay, and sa's first line.
   */
  async seatTwoOwners(extra: Record<string, unknown> = {}): Promise<void> {
    const t = cli(this.honestHome, this.relay.url);
    for (const owner of ["oa", "ob"]) expect((await t.run(["keygen", "--owner", owner])).code).toBe(0);
    const key = (owner: string) =>
      JSON.parse(readFileSync(join(this.honestHome, "owners", `${owner}.json`), "utf8")).public_key as string;
    const config = {
      id: this.table,
      topic: "a stroller, second hand",
      owners: { oa: { public_key: key("oa"), approvals: "async" }, ob: { public_key: key("ob"), approvals: "async" } },
      seats: { sa: { owner: "oa" }, sb: { owner: "ob" } },
      topology: { kind: "open" },
      termination: { any: [{ max_entries: 500 }] },
      ...extra,
    };
    writeFileSync(join(this.work, "config.json"), JSON.stringify(config));
    expect((await t.run(["create", join(this.work, "config.json"), "--owner", "oa"])).code).toBe(0);
    expect((await t.run(["join", ...this.seat("sa"), "--owner", "oa"])).code).toBe(0);
    expect((await t.run(["join", ...this.seat("sb"), "--owner", "ob"])).code).toBe(0);
    expect((await t.run(["say", ...this.seat("sa"), "the old copy ends here"])).code).toBe(0);
  }

  /** Stops the relay and keeps the older copy: its storage, and the honest home as `otherHome`. */
  async keepOldCopy(): Promise<void> {
    await this.stop();
    cpSync(this.storage, join(this.work, "storage-old"), { recursive: true });
    cpSync(this.honestHome, this.otherHome, { recursive: true });
  }

  /** Stops the relay, restores its storage from the older copy and starts it again; its URL. */
  async rollBack(): Promise<string> {
    await this.stop();
    rmSync(this.storage, { recursive: true, force: true });
    cpSync(join(this.work, "storage-old"), this.storage, { recursive: true });
    return this.restart();
  }

  /** A copy of the honest home as it is now, named `name`: a client for a command that must be the first to meet the rolled-back relay. */
  honestCopy(name: string): string {
    const home = join(this.work, `honest-${name}`);
    cpSync(this.honestHome, home, { recursive: true });
    return home;
  }

  /** Stops the relay and removes the work directory. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.work, { recursive: true, force: true });
  }
}
