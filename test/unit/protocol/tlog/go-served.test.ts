/**
 * Go's golang.org/x/mod/sumdb/note and sumdb/tlog read what a real local relay serves (issue 27):
 * test/go/tlogcheck's "served" case fetches a public table's checkpoint, hash tiles and entry
 * bundles over HTTP, opens the note with the relay's verifier key, checks every tile against the
 * signed root (tlog.TileHashReader), proves records from the bundles (ProveRecord, CheckRecord) and
 * that the checkpoint extends an earlier one (ProveTree, CheckTree). Skips without `go` as
 * go-crosscheck.test.ts does, except under CI.
 */
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { fromBase64url, signSubmission, type Signer } from "../../../../src/protocol/index.js";
import { tableOrigin } from "../../../../src/protocol/tlog/checkpoint.js";
import { formatVerifierKey, SIG_TYPE_ED25519 } from "../../../../src/protocol/tlog/note.js";
import { ed25519 } from "../../../../src/protocol/signing/crypto.js";
import { seatDebate, tableClient, uniqueTable } from "../../../support/client-table.js";
import { relayPerFile } from "../../../support/local-relay.js";
import { limitSettings } from "../../../support/limits-env.js";
import { nonceOf } from "../../../support/table-fixture.js";

const REPO = fileURLToPath(new URL("../../../../", import.meta.url));
const hasGo = spawnSync("go", ["version"], { encoding: "utf8" }).status === 0;

function runGo(cases: object[]): { id: string; ok: boolean; detail: string }[] {
  const run = spawnSync("go", ["run", "./test/go/tlogcheck"], {
    cwd: REPO,
    input: JSON.stringify(cases),
    encoding: "utf8",
    env: {
      ...process.env,
      GO111MODULE: "off",
      GOPATH: "/usr/share/gocode",
      GOFLAGS: "",
      GOPROXY: "off",
      GOCACHE: join(tmpdir(), "trestle-tlogcheck-gocache"),
    },
  });
  if (run.status !== 0) throw new Error(`go run ./test/go/tlogcheck failed (${run.status}): ${run.stderr}`);
  return run.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

// Its own relay: 256 writes by one seat are past the shared relay's seat_writes_per_min.
const relayOf = relayPerFile({
  vars: limitSettings({
    seat_writes_per_min: 0,
    client_tables_per_hour: 0,
    client_joins_per_min: 0,
    edge_reads_per_min: 0,
    owner_tables_per_hour: 0,
  }),
});
let table: string;
let oldNote: string;

/** Posts `count` says of bot-tao to `table` at the relay, one after another. */
async function says(botTao: Signer, count: number, from: number): Promise<void> {
  for (let i = from; i < from + count; i++) {
    const body = await signSubmission(botTao, {
      table,
      seat: "bot-tao",
      kind: "say",
      body: `line ${i}`,
      nonce: nonceOf(`${table}:${i}`),
    });
    const res = await fetch(`${relayOf().url}/tables/${table}/entries`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
  }
}

describe("Go's x/mod reading a table from a running relay", () => {
  if (!hasGo && process.env.CI) {
    it("must run under CI, where .ci/run installs golang-go and golang-golang-x-mod-dev", () => {
      throw new Error("`go` is not on the PATH under CI");
    });
    return;
  }
  if (!hasGo) {
    it.skip("skipped: `go` is not installed (apt-get install golang-go golang-golang-x-mod-dev to run this check)", () => {});
    return;
  }

  beforeAll(async () => {
    const relay = relayOf();
    table = uniqueTable("go-served");
    const client = await tableClient(relay.url, table);
    const k = await seatDebate(client, {
      public: true,
      topology: { kind: "open" },
      termination: { any: [{ max_entries: 1000 }] },
    });
    await says(k.botTao, 96, 0);
    oldNote = await (await fetch(`${relay.url}/tables/${table}/checkpoint`)).text();
    await says(k.botTao, 160, 96);
  }, 180_000);

  it(
    "verifies the checkpoint, every tile it reads, records from the bundles and consistency with an earlier checkpoint",
    { timeout: 180_000 },
    async () => {
      const relay = relayOf();
      const host = new URL(relay.url).host;
      const relayKey = fromBase64url(
        ((await (await fetch(`${relay.url}/.well-known/trestle.json`)).json()) as { relay_key: string }).relay_key,
      );
      const vkey = formatVerifierKey(tableOrigin(host, table), SIG_TYPE_ED25519, relayKey);
      const other = formatVerifierKey(
        tableOrigin(host, table),
        SIG_TYPE_ED25519,
        (await (await ed25519()).signer(new Uint8Array(32).fill(3))).publicKey,
      );
      const url = `${relay.url}/tables/${table}/`;
      const size = Number((await (await fetch(`${url}checkpoint`)).text()).split("\n")[1]);
      expect(size).toBe(260);
      const verdicts = runGo([
        { id: "served", kind: "served", url, vkeys: [vkey], indexes: [0, 3, 95, 255, 256, 259], old_note: oldNote },
        { id: "served, another key", kind: "served", url, vkeys: [other], indexes: [0] },
      ]);
      expect(verdicts).toEqual([
        { id: "served", ok: true, detail: `${tableOrigin(host, table)} 260` },
        { id: "served, another key", ok: false, detail: expect.stringContaining("verif") },
      ]);
    },
  );
});
