/**
 * Checked by an implementation nobody here wrote (issue 27): trestle's checkpoints, signed notes,
 * cosignatures, proofs and tiles go to test/go/tlogcheck, which verifies them with Go's
 * golang.org/x/mod/sumdb/note and sumdb/tlog (Debian's golang-go and golang-golang-x-mod-dev, which
 * .ci/run installs). Go must accept every valid case and refuse every tampered one. Without `go` on
 * the PATH this skips, except under CI, where it fails.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  addCheckpoint,
  checkpointOf,
  consistencyProof,
  cosignatureSigner,
  ed25519,
  ed25519NoteSigner,
  formatAddCheckpoint,
  formatCheckpoint,
  formatVerifierKey,
  inclusionProof,
  leafHash,
  memoryHashSource,
  rangeHash,
  signNoteText,
  SIG_TYPE_COSIGNATURE,
  SIG_TYPE_ED25519,
  tableOrigin,
  tileBytes,
  tilePath,
  tilesForSize,
  toBase64,
  utf8,
  witnessedLogs,
  witnessVerifierKey,
  type WitnessRecord,
} from "../../../../src/protocol/index.js";

const REPO = fileURLToPath(new URL("../../../../", import.meta.url));
const GOPATH = "/usr/share/gocode";
const hasGo = spawnSync("go", ["version"], { encoding: "utf8" }).status === 0;

/** One case for the Go checker, and whether Go must accept it. */
type GoCase = { id: string; kind: string; want: boolean } & Record<string, unknown>;

function runGo(cases: GoCase[]): Map<string, { ok: boolean; detail: string }> {
  const run = spawnSync("go", ["run", "./test/go/tlogcheck"], {
    cwd: REPO,
    input: JSON.stringify(cases),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      GO111MODULE: "off",
      GOPATH,
      GOFLAGS: "",
      GOPROXY: "off",
      GOCACHE: join(tmpdir(), "trestle-tlogcheck-gocache"),
    },
  });
  if (run.status !== 0) throw new Error(`go run ./test/go/tlogcheck failed (${run.status}): ${run.stderr}`);
  const verdicts = run.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { id: string; ok: boolean; detail: string });
  return new Map(verdicts.map((v) => [v.id, v]));
}

const b64 = (bytes: Uint8Array) => toBase64(bytes);
const flipBit = (bytes: Uint8Array, bit: number) => {
  const copy = bytes.slice();
  copy[bit >> 3]! ^= 1 << (bit & 7);
  return copy;
};

/** Every case: a table of 700 entries under its relay key, with a witness cosigning. */
async function makeCases(): Promise<GoCase[]> {
  const impl = await ed25519();
  const relay = await impl.signer(new Uint8Array(32).fill(7));
  const witness = await impl.signer(new Uint8Array(32).fill(9));
  const origin = tableOrigin("relay.example", "deal-42");
  const vkey = formatVerifierKey(origin, SIG_TYPE_ED25519, relay.publicKey);
  const witnessName = "witness.example/w1";
  const witnessVkey = formatVerifierKey(witnessName, SIG_TYPE_COSIGNATURE, witness.publicKey);
  const data = Array.from({ length: 700 }, (_, i) =>
    utf8(JSON.stringify({ seq: i + 1, kind: "message", body: `entry ${i}` })),
  );
  const leaves = data.map(b64);
  const source = memoryHashSource(data.map(leafHash));
  const root = (n: number) => rangeHash(0, n, source);
  const cases: GoCase[] = [];

  for (const size of [1, 2, 3, 7, 8, 100, 256, 257, 700]) {
    const text = formatCheckpoint(checkpointOf(origin, size, root(size)));
    const note = await signNoteText(text, [
      ed25519NoteSigner(origin, relay),
      cosignatureSigner(witnessName, witness, 1767225600 + size),
    ]);
    cases.push({
      id: `checkpoint ${size}`,
      kind: "checkpoint",
      want: true,
      note,
      vkeys: [vkey],
      cosigner_vkeys: [witnessVkey],
      leaves,
    });
    cases.push({ id: `checkpoint ${size} relay only`, kind: "checkpoint", want: true, note, vkeys: [vkey], leaves });
    cases.push({
      id: `cosignature ${size} witness only`,
      kind: "note",
      want: true,
      note,
      cosigner_vkeys: [witnessVkey],
    });
    cases.push({
      id: `checkpoint ${size} size changed`,
      kind: "checkpoint",
      want: false,
      note: note.replace(`\n${size}\n`, `\n${size + 1}\n`),
      vkeys: [vkey],
      leaves,
    });
    const [line1, line2] = note.slice(text.length + 1).split("\n");
    const bent = (line: string) => line.replace(/ (.)/, (_, c: string) => ` ${c === "A" ? "B" : "A"}`);
    const badCosig = `${text}\n${line1}\n${line2!.slice(0, -3)}${line2!.endsWith("A==") ? "Q==" : "A=="}\n`;
    cases.push({
      id: `cosignature ${size} tampered`,
      kind: "note",
      want: false,
      note: badCosig,
      vkeys: [vkey],
      cosigner_vkeys: [witnessVkey],
    });
    cases.push({
      id: `checkpoint ${size} key ID changed`,
      kind: "note",
      want: false,
      note: `${text}\n${bent(line1!)}\n`,
      vkeys: [vkey],
    });
    const wrongRoot = await signNoteText(formatCheckpoint(checkpointOf(origin, size, root(size - 1))), [
      ed25519NoteSigner(origin, relay),
    ]);
    cases.push({
      id: `checkpoint ${size} wrong root`,
      kind: "checkpoint",
      want: false,
      note: wrongRoot,
      vkeys: [vkey],
      leaves,
    });
  }
  const other = await impl.signer(new Uint8Array(32).fill(8));
  const forged = await signNoteText(formatCheckpoint(checkpointOf(origin, 5, root(5))), [
    ed25519NoteSigner(origin, other),
  ]);
  cases.push({ id: "checkpoint signed by another key", kind: "note", want: false, note: forged, vkeys: [vkey] });

  for (const [index, size] of [
    [0, 1],
    [4, 5],
    [7, 8],
    [12, 13],
    [63, 64],
    [0, 255],
    [255, 256],
    [256, 257],
    [123, 700],
    [699, 700],
  ] as const) {
    const proof = inclusionProof(index, size, source);
    const base = { kind: "inclusion", size, root: b64(root(size)), index, leaf: leaves[index] };
    cases.push({ id: `inclusion ${index} of ${size}`, want: true, ...base, proof: proof.map(b64) });
    proof.forEach((hash, i) =>
      cases.push({
        id: `inclusion ${index} of ${size}, bit flipped in ${i}`,
        want: false,
        ...base,
        proof: proof.map((h) => b64(h === hash ? flipBit(h, 77 + i) : h)),
      }),
    );
    cases.push({
      id: `inclusion ${index} of ${size}, wrong leaf`,
      want: false,
      ...base,
      leaf: leaves[(index + 1) % leaves.length],
      proof: proof.map(b64),
    });
    if (size > 1)
      cases.push({
        id: `inclusion ${index} of ${size}, wrong index`,
        want: false,
        ...base,
        index: (index + 1) % size,
        proof: proof.map(b64),
      });
  }

  for (const [first, second] of [
    [1, 1],
    [1, 2],
    [3, 7],
    [4, 8],
    [6, 8],
    [7, 700],
    [255, 256],
    [256, 257],
    [100, 700],
    [700, 700],
  ] as const) {
    const proof = consistencyProof(first, second, source);
    const base = { kind: "consistency", first, first_root: b64(root(first)), size: second, root: b64(root(second)) };
    cases.push({ id: `consistency ${first} to ${second}`, want: true, ...base, proof: proof.map(b64) });
    proof.forEach((hash, i) =>
      cases.push({
        id: `consistency ${first} to ${second}, bit flipped in ${i}`,
        want: false,
        ...base,
        proof: proof.map((h) => b64(h === hash ? flipBit(h, 3 + i) : h)),
      }),
    );
    if (first > 1)
      cases.push({
        id: `consistency ${first} to ${second}, another old root`,
        want: false,
        ...base,
        first_root: b64(root(first - 1)),
        proof: proof.map(b64),
      });
  }

  // The witness (witness-service.ts) cosigning the table as it grows: each answer's cosignature line
  // after the relay's note, and the note it keeps for monitors. Its key's base64 holds a '+'.
  const w = { name: "witness.example/trestle", signer: await impl.signer(new Uint8Array(32).fill(0x2a)) };
  const wVkey = witnessVerifierKey(w);
  const records = new Map<string, WitnessRecord>();
  const store = {
    record: (o: string) => records.get(o),
    save: (r: WitnessRecord) => void records.set(r.origin, r),
    keep: () => {},
  };
  let held = 0;
  for (const size of [3, 100, 700]) {
    const note = await signNoteText(formatCheckpoint(checkpointOf(origin, size, root(size))), [
      ed25519NoteSigner(origin, relay),
    ]);
    const body = formatAddCheckpoint({ oldSize: held, proof: consistencyProof(held, size, source), note });
    const answer = await addCheckpoint(body, {
      logs: witnessedLogs([`${origin}=${vkey}`]),
      store,
      witness: w,
      now: 1767225600_000 + size * 1000,
    });
    if (answer.status !== 200) throw new Error(`the witness refused size ${size}: ${answer.body}`);
    held = size;
    cases.push({
      id: `witness cosignature ${size}`,
      kind: "note",
      want: true,
      note: `${note}${answer.body}`,
      vkeys: [vkey],
      cosigner_vkeys: [wVkey],
    });
    cases.push({
      id: `witness cosignature ${size} alone`,
      kind: "note",
      want: true,
      note: `${note.slice(0, note.indexOf("\n\n") + 2)}${answer.body}`,
      cosigner_vkeys: [wVkey],
    });
    cases.push({
      id: `witness kept checkpoint ${size}`,
      kind: "checkpoint",
      want: true,
      note: records.get(origin)!.note,
      vkeys: [vkey],
      cosigner_vkeys: [wVkey],
      leaves,
    });
    const other = answer.body.replace(
      / (\S)(\S+)\n$/,
      (_, c: string, rest: string) => ` ${c}${rest.slice(0, 20)}${rest[20] === "A" ? "B" : "A"}${rest.slice(21)}\n`,
    );
    cases.push({
      id: `witness cosignature ${size} tampered`,
      kind: "note",
      want: false,
      note: `${note}${other}`,
      vkeys: [vkey],
      cosigner_vkeys: [wVkey],
    });
  }

  for (const size of [1, 255, 256, 257, 700]) {
    const tiles = tilesForSize(size).map((t) => ({ path: tilePath(t), data: b64(tileBytes(t, source)) }));
    cases.push({ id: `tiles of ${size}`, kind: "tiles", want: true, size, leaves: leaves.slice(0, size), tiles });
  }
  const tiles = tilesForSize(700).map((t) => ({ path: tilePath(t), data: b64(tileBytes(t, source)) }));
  tiles[1] = { ...tiles[1]!, data: b64(flipBit(tileBytes(tilesForSize(700)[1]!, source), 5)) };
  cases.push({ id: "tiles of 700, one bit flipped", kind: "tiles", want: false, size: 700, leaves, tiles });
  return cases;
}

describe("Go's x/mod sumdb/note and sumdb/tlog", () => {
  if (!hasGo && process.env.CI) {
    it("must run under CI, where .ci/run installs golang-go and golang-golang-x-mod-dev", () => {
      throw new Error(
        "`go` is not on the PATH under CI: .ci/run should have installed golang-go and golang-golang-x-mod-dev",
      );
    });
    return;
  }
  if (!hasGo) {
    it.skip("skipped: `go` is not installed (apt-get install golang-go golang-golang-x-mod-dev to run this check)", () => {});
    return;
  }

  it(
    "accept every checkpoint, note, cosignature, proof and tile trestle makes, and refuse every tampered one",
    { timeout: 180_000 },
    async () => {
      expect(
        existsSync(join(GOPATH, "src/golang.org/x/mod/sumdb/tlog")),
        "golang-golang-x-mod-dev is not installed",
      ).toBe(true);
      const cases = await makeCases();
      const verdicts = runGo(cases);
      const wrong = cases
        .filter((c) => verdicts.get(c.id)?.ok !== c.want)
        .map(
          (c) =>
            `${c.id}: Go ${verdicts.get(c.id)?.ok ? "accepted" : "refused"} (${verdicts.get(c.id)?.detail ?? "no verdict"})`,
        );
      expect(wrong).toEqual([]);
      expect(verdicts.size).toBe(cases.length);
      expect(cases.filter((c) => c.want).length).toBeGreaterThan(50);
      expect(cases.filter((c) => !c.want).length).toBeGreaterThan(50);
      expect(verdicts.get("checkpoint 700")?.detail).toBe(
        "relay.example/tables/deal-42 relay.example/tables/deal-42,witness.example/w1",
      );
      expect(verdicts.get("witness kept checkpoint 700")?.detail).toBe(
        "relay.example/tables/deal-42 relay.example/tables/deal-42,witness.example/trestle",
      );
    },
  );
});
