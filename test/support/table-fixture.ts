/**
 * Deterministic keys and configs for tests, and an in-memory ledger that runs the same admit +
 * chain code the Durable Object runs (so protocol tests need no relay).
 */
import {
  admit,
  chainEntry,
  createDraft,
  GENESIS_LINK,
  LIMITS,
  joinDraft,
  nobleEd25519,
  sha256,
  signCreate,
  signHead,
  signJoin,
  signSubmission,
  submissionDraft,
  toBase64url,
  utf8,
  type CapabilityCard,
  type Entry,
  type SignedHead,
  type Signer,
  type SubmissionInput,
  type TableConfig,
  type TableState,
} from "../../src/protocol/index.js";

/** A signer whose seed is SHA-256 of `label`: the same key in every run. */
export function keyOf(label: string): Promise<Signer> {
  return nobleEd25519.signer(sha256(utf8(label)));
}

/** A fresh-looking but deterministic nonce for `label`. */
export function nonceOf(label: string): string {
  return toBase64url(sha256(utf8(`nonce:${label}`))).slice(0, 22);
}

/** The deterministic key named `name`, or with a `label` another one of its own (`label/name`): a cast's keys, kept apart from other files' casts. */
export function castKey(name: string, label?: string): Promise<Signer> {
  return keyOf(label === undefined ? name : `${label}/${name}`);
}

/** The keys of the design's #459/#461 cast; with a `label`, the same cast with keys of its own (for tests that count per owner key). */
export async function cast(label?: string) {
  const k = (name: string) => castKey(name, label);
  return {
    relay: await k("relay"),
    tao: await k("owner:tao"),
    jenny: await k("owner:jenny"),
    ops: await k("owner:ops"),
    botTao: await k("seat:bot-tao"),
    botJenny: await k("seat:bot-jenny"),
    judge: await k("seat:judge"),
    human: await k("seat:tao-human"),
  };
}
export type Cast = Awaited<ReturnType<typeof cast>>;

/** The owners tao, jenny and ops with their keys in `keys` (the cast's, or a test's own), as a config's `owners` (a fresh object each call). */
export function castOwners(keys: Pick<Cast, "tao" | "jenny" | "ops">): TableConfig["owners"] {
  return {
    tao: { public_key: keys.tao.publicKeyText },
    jenny: { public_key: keys.jenny.publicKeyText },
    ops: { public_key: keys.ops.publicKeyText },
  };
}

/** A debate config: bot-tao (pro, tao) vs bot-jenny (con, jenny), judged by judge (ops). */
export function debateConfig(keys: Cast, overrides: Partial<TableConfig> = {}): TableConfig {
  return {
    id: "t-459",
    topic: "Should #459 ship before #461?",
    owners: castOwners(keys),
    seats: {
      "bot-tao": { owner: "tao" },
      "bot-jenny": { owner: "jenny" },
      judge: { owner: "ops" },
    },
    topology: { kind: "debate", pro: "bot-tao", con: "bot-jenny", judge: "judge", rounds: 2 },
    termination: { any: ["decision", "rounds_exhausted"] },
    ...overrides,
  };
}

/** An in-memory ledger driven through the real admit + chain code. */
export class MemoryLedger {
  entries: Entry[] = [];
  state: TableState | null = null;
  now = 1_800_000_000_000;
  /** The ledger limit admit enforces (the published LIMITS.entries unless a test sets a small one). */
  maxEntries: number = LIMITS.entries;
  private prev = GENESIS_LINK;

  constructor(readonly relay: Signer) {}

  /** Appends what admit returns for `draft`; throws its refusal. */
  append(draft: Parameters<typeof admit>[1]): Entry[] {
    const result = admit(this.state, draft, this.now, this.maxEntries);
    const added = result.entries.map((e) => {
      const chained = chainEntry(e, this.prev);
      this.prev = chained.link;
      return chained;
    });
    this.entries.push(...added);
    this.state = result.state;
    this.now += 1000;
    return added;
  }

  async create(owner: Signer, ownerName: string, config: TableConfig): Promise<Entry[]> {
    return this.append(createDraft(await signCreate(owner, config, ownerName), this.relay.publicKeyText));
  }

  async join(
    owner: Signer,
    ownerName: string,
    seat: string,
    seatKey: Signer,
    opts: { human?: boolean; card?: CapabilityCard; nonce?: string } = {},
  ): Promise<Entry[]> {
    const request = await signJoin(
      owner,
      {
        table: this.state!.table,
        seat,
        owner: ownerName,
        seat_key: seatKey.publicKeyText,
        human: opts.human ?? false,
        nonce: opts.nonce ?? nonceOf(`join:${seat}`),
        expires: this.now + 60_000,
      },
      opts.card ?? { summary: `${seat} at the table` },
    );
    return this.append(joinDraft(this.state!, request));
  }

  async submit(
    seatKey: Signer,
    input: Omit<SubmissionInput, "table" | "nonce"> & { nonce?: string },
  ): Promise<Entry[]> {
    const request = await signSubmission(seatKey, {
      table: this.state!.table,
      nonce: input.nonce ?? nonceOf(`${input.seat}:${this.entries.length}`),
      ...input,
    } as SubmissionInput);
    return this.append(submissionDraft(this.state!, request, seatKey.publicKeyText));
  }

  async head(): Promise<SignedHead> {
    const last = this.entries[this.entries.length - 1]!;
    return signHead(this.relay, { table: last.table, seq: last.seq, link: last.link });
  }

  /** The same ledger, continued by another relay (its key `relay`): a table moved (docs/SPEC.md §8.4). */
  handOver(relay: Signer): MemoryLedger {
    const next = new MemoryLedger(relay);
    next.entries = [...this.entries];
    next.state = this.state;
    next.now = this.now;
    next.maxEntries = this.maxEntries;
    next.prev = this.prev;
    return next;
  }
}

/** A debate ordered by `relay` on a MemoryLedger: the three seats joined, then bot-tao's say `body`. */
export async function seatedDebate(
  k: Cast,
  relay: Signer,
  overrides: Partial<TableConfig> = {},
  body = "ship #459 first",
): Promise<MemoryLedger> {
  const l = new MemoryLedger(relay);
  await l.create(k.ops, "ops", debateConfig(k, overrides));
  await l.join(k.tao, "tao", "bot-tao", k.botTao);
  await l.join(k.jenny, "jenny", "bot-jenny", k.botJenny);
  await l.join(k.ops, "ops", "judge", k.judge);
  await l.submit(k.botTao, { seat: "bot-tao", kind: "say", body });
  return l;
}
