/**
 * `trestle witness` on this machine (Node): the witness app (app.ts) on 127.0.0.1, its key and its
 * state in files under `<home>/witness/` (key.json 0600, state.json), each add-checkpoint run alone
 * so checking the old size and storing the new checkpoint stay atomic, as in the Worker's object.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { z } from "zod";
import { readJsonFile, writeAtomically } from "../client/files.js";
import { randomSeed } from "../client/random.js";
import {
  ADD_CHECKPOINT_MAX_CHARS,
  addCheckpoint,
  cosignedCheckpoint,
  ed25519,
  fromBase64url,
  KeyNameSchema,
  textSha256,
  toBase64url,
  TrestleError,
  WitnessEvidenceSchema,
  WitnessRecordSchema,
  witnessVerifierKey,
  type WitnessedLogs,
  type WitnessEvidence,
  type WitnessKey,
  type WitnessStore,
} from "../protocol/index.js";
import { witnessApp, type WitnessBackend } from "./app.js";

const KeyFileSchema = z.strictObject({
  name: KeyNameSchema,
  seed: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "a base64url 32-byte seed"),
});
const StateFileSchema = z.strictObject({
  records: z.array(WitnessRecordSchema),
  evidence: z.array(WitnessEvidenceSchema),
});

/** The witness's key in `<home>/witness/key.json`, made once (name `trestle-witness/<8 hex of the key's hash>`); E_KEY_FILE when the file is malformed. */
export async function localWitnessKey(home: string): Promise<WitnessKey> {
  const path = join(home, "witness", "key.json");
  const file = readJsonFile(path);
  if (!file.exists) {
    const seed = randomSeed();
    const signer = await (await ed25519()).signer(seed);
    writeAtomically(
      path,
      `${JSON.stringify({ name: `trestle-witness/${textSha256(signer.publicKeyText).slice(0, 8)}`, seed: toBase64url(seed) }, null, 2)}\n`,
    );
  }
  const parsed = KeyFileSchema.safeParse(file.exists ? file.value : readJsonFile(path).value);
  if (!parsed.success) throw new TrestleError("E_KEY_FILE", `${path} is not a witness key file`);
  return { name: parsed.data.name, signer: await (await ed25519()).signer(fromBase64url(parsed.data.seed)) };
}

/** A store in `<home>/witness/state.json`, rewritten whole (atomically) at each change. */
export function fileWitnessStore(home: string): WitnessStore & { evidence(): WitnessEvidence[] } {
  const path = join(home, "witness", "state.json");
  const read = () => {
    const file = readJsonFile(path);
    if (!file.exists) return { records: [], evidence: [] };
    const parsed = StateFileSchema.safeParse(file.value);
    if (!parsed.success) throw new TrestleError("E_KEY_FILE", `${path} is not a witness state file`);
    return parsed.data;
  };
  const write = (state: z.infer<typeof StateFileSchema>) =>
    writeAtomically(path, `${JSON.stringify(state, null, 2)}\n`);
  return {
    record: (origin) => read().records.find((r) => r.origin === origin),
    save(record) {
      const state = read();
      write({ ...state, records: [...state.records.filter((r) => r.origin !== record.origin), record] });
    },
    keep(evidence) {
      const state = read();
      if (state.evidence.some((e) => e.origin === evidence.origin && e.conflicting === evidence.conflicting)) return;
      write({ ...state, evidence: [...state.evidence, evidence] });
    },
    evidence: () => read().evidence,
  };
}

/** A running local witness. */
export interface LocalWitness {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Serves the witness for `home` on 127.0.0.1:`port` (0: a free one); `clock` gives the time in ms. */
export async function serveLocalWitness(options: {
  home: string;
  logs: WitnessedLogs;
  port: number;
  clock: () => number;
}): Promise<LocalWitness> {
  const witness = await localWitnessKey(options.home);
  const store = fileWitnessStore(options.home);
  let queue: Promise<unknown> = Promise.resolve();
  const backend: WitnessBackend = {
    add(body) {
      const run = queue.then(() => addCheckpoint(body, { logs: options.logs, store, witness, now: options.clock() }));
      queue = run.catch(() => undefined);
      return run;
    },
    checkpoint: async (hash) => cosignedCheckpoint(hash, { logs: options.logs, store }),
    evidence: async () => store.evidence(),
    info: async () => ({
      name: witness.name,
      verifier_key: witnessVerifierKey(witness),
      logs: [...options.logs.keys()],
    }),
  };
  const app = witnessApp(() => backend);
  const server = createServer((req, res) => {
    void toRequest(req)
      .then((request) => app.fetch(request))
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(413, { "content-type": "application/json" });
        res.end(JSON.stringify(new TrestleError("E_TOO_LARGE", "the request body is too large").toEnvelope()));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The Fetch request of a Node request, its body read up to the longest add-checkpoint (in UTF-8 bytes); longer rejects. */
async function toRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > ADD_CHECKPOINT_MAX_CHARS * 3) throw new TrestleError("E_TOO_LARGE");
    chunks.push(chunk);
  }
  const method = req.method ?? "GET";
  const body = method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks);
  return new Request(new URL(req.url ?? "/", "http://127.0.0.1"), { method, body });
}
