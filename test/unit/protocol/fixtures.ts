/**
 * Shared fixtures for the protocol tests: known-good ledgers and the tools to tamper with them
 * one field at a time (re-chaining and re-signing heads where the chain itself must stay
 * consistent), and TestTable, which drives MemoryLedger by seat name for the policy tests.
 */
import fc from "fast-check";
import { expect } from "vitest";
import {
  carriedJoinOf,
  chainEntry,
  childOpeningDraft,
  exportText,
  resultStatement,
  signStatement,
  signSubtable,
  subtableOpenedDraft,
  subtableResultDraft,
  GENESIS_LINK,
  signHead,
  signSubmission,
  verifyExport,
  type DistributiveOmit,
  type Entry,
  type HiddenEntry,
  type SignedHead,
  type Signer,
  type SubmissionInput,
  type TableConfig,
  type TableState,
  type UnchainedEntry,
  type VerifyReport,
} from "../../../src/protocol/index.js";
import {
  cast,
  castOwners,
  debateConfig,
  keyOf,
  MemoryLedger,
  nonceOf,
  type Cast,
} from "../../support/table-fixture.js";

/** The TrestleError a call throws (test/support/refused.ts). */
export { refusal } from "../../support/refused.js";

/** A debate table (`config`, default debateConfig) created by ops with bot-tao, bot-jenny and judge joined in that order. */
export async function seatedDebate(k: Cast, config: TableConfig = debateConfig(k)): Promise<MemoryLedger> {
  const l = new MemoryLedger(k.relay);
  await l.create(k.ops, "ops", config);
  await l.join(k.tao, "tao", "bot-tao", k.botTao);
  await l.join(k.jenny, "jenny", "bot-jenny", k.botJenny);
  await l.join(k.ops, "ops", "judge", k.judge);
  return l;
}

/** A debate run to a decision: 15 entries (open, 3 joins, floor start, 4 says and floors, decision, close). */
export async function debateToDecision(
  k?: Cast,
): Promise<{ k: Cast; l: MemoryLedger; entries: Entry[]; head: SignedHead }> {
  k ??= await cast();
  const l = await seatedDebate(k);
  for (let r = 1; r <= 2; r++) {
    await l.submit(k.botTao, { seat: "bot-tao", kind: "say", body: `pro, round ${r}` });
    await l.submit(k.botJenny, { seat: "bot-jenny", kind: "say", body: `con, round ${r}` });
  }
  await l.submit(k.judge, { seat: "judge", kind: "decision", body: "ship #459 first" });
  return { k, l, entries: l.entries, head: await l.head() };
}

/**
 * debateToDecision's ledger and head, with `verify` (verifyExport with its relay key pinned unless
 * options are given) and `refutation` (the REFUTED part of the report, failing the test unless the
 * verdict is REFUTED).
 */
export async function pinnedDebate() {
  const { k, entries, head } = await debateToDecision();
  const pinned = { relayKey: k.relay.publicKeyText };
  const verify = (text: string, options = pinned): Promise<VerifyReport> => verifyExport(text, options);
  const refutation = async (text: string, options = pinned): Promise<NonNullable<VerifyReport["refuted"]>> => {
    const report = await verify(text, options);
    expect(report.verdict).toBe("REFUTED");
    return report.refuted!;
  };
  return { k, entries, head, pinned, verify, refutation };
}

/** What an entry is, for readable assertions: its kind, or its system subkind. */
export function kindOf(entry: Entry | UnchainedEntry): string {
  return entry.kind === "system" ? entry.subkind : entry.kind;
}

/** A deep copy, so a test can tamper without touching the fixture. */
export function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Recomputes leaf and link of every entry in order, as a lying relay would; seqs are kept. */
export function rechain(entries: readonly (Entry | UnchainedEntry)[]): Entry[] {
  let prev = GENESIS_LINK;
  return entries.map((entry) => {
    const { leaf: _l, link: _k, ...unchained } = entry as Entry;
    const chained = chainEntry(unchained as UnchainedEntry, prev);
    prev = chained.link;
    return chained;
  });
}

/** The items with the entries at the given seqs replaced by their leaf hashes only. */
export function hide(entries: readonly Entry[], seqs: readonly number[]): (Entry | HiddenEntry)[] {
  return entries.map((e) => (seqs.includes(e.seq) ? { seq: e.seq, leaf: e.leaf } : e));
}

/** A head over the last of `entries`, signed by `relay`. */
export function headOver(
  relay: Signer,
  entries: readonly Entry[],
  at = entries.length,
  table?: string,
): Promise<SignedHead> {
  const entry = entries[at - 1]!;
  return signHead(relay, { table: table ?? entry.table, seq: entry.seq, link: entry.link });
}

/** The lines of an export text without the final newline, to alter one and join them again. */
export function exportLines(text: string): string[] {
  return text.slice(0, -1).split("\n");
}

/** Export text from lines: each ends with a newline. */
export function unlines(lines: readonly string[]): string {
  return lines.join("\n") + "\n";
}

/** The export text of a ledger with the header naming `relay`. */
export function exportOf(
  relay: Signer,
  items: readonly (Entry | HiddenEntry)[],
  heads: readonly SignedHead[],
  table = "t-459",
): string {
  return exportText({ table, relay: relay.publicKeyText }, items, heads);
}

/**
 * An authored entry built by hand as a misbehaving relay would record it: a genuine seat
 * signature over the submission, any seq and ts, no policy check.
 */
export async function handSigned(
  seatKey: Signer,
  input: Omit<SubmissionInput, "table" | "nonce"> & { nonce?: string; table?: string },
  at: { seq: number; ts: number },
): Promise<UnchainedEntry> {
  const request = await signSubmission(seatKey, {
    table: "t-459",
    nonce: nonceOf(`hand:${input.seat}:${at.seq}`),
    ...input,
  } as SubmissionInput);
  return {
    ...request.submission,
    seq: at.seq,
    ts: at.ts,
    author: { key: seatKey.publicKeyText, sig: request.sig },
  } as UnchainedEntry;
}

/** One seat of a TestTable: its owner, keys and whether a human operates it. */
export interface SeatSpec {
  owner: string;
  human?: boolean;
}

/**
 * A table driven through MemoryLedger by seat name: owners tao, jenny and ops; each seat's key is
 * derived from its name, so every run is identical.
 */
export class TestTable {
  readonly l: MemoryLedger;
  /** Full bodies of the entries the relay truncated, by seq (what an export carries as originals). */
  readonly originals = new Map<number, string>();
  private constructor(
    readonly k: Cast,
    readonly config: TableConfig,
  ) {
    this.l = new MemoryLedger(k.relay);
  }

  /** Opens `config` (created by ops) and joins `join` seats in order (default: every declared seat). */
  static async open(config: TableConfig, join?: readonly string[], k?: Cast): Promise<TestTable> {
    const t = new TestTable(k ?? (await cast()), config);
    await t.l.create(t.k.ops, "ops", config);
    for (const seat of join ?? Object.keys(config.seats ?? {})) await t.join(seat);
    return t;
  }

  ownerKey(owner: string): Signer {
    return owner === "tao" ? this.k.tao : owner === "jenny" ? this.k.jenny : this.k.ops;
  }

  seatKey(seat: string): Promise<Signer> {
    return keyOf(`seat:${seat}`);
  }

  /** Joins a seat as its declared owner (or `owner`); returns the entries appended. */
  async join(seat: string, opts: { owner?: string; human?: boolean } = {}): Promise<Entry[]> {
    const declared = this.config.seats?.[seat];
    const owner = opts.owner ?? declared?.owner ?? "tao";
    return this.l.join(this.ownerKey(owner), owner, seat, await this.seatKey(seat), {
      human: opts.human ?? declared?.human ?? false,
    });
  }

  /** Submits as `seat`, signed with its own key. */
  async write(
    seat: string,
    input: DistributiveOmit<SubmissionInput, "table" | "nonce" | "seat"> & { nonce?: string },
  ): Promise<Entry[]> {
    const added = await this.l.submit(await this.seatKey(seat), { seat, ...input } as Omit<
      SubmissionInput,
      "table" | "nonce"
    >);
    const first = added[0];
    if (first && first.kind !== "system" && first.kind !== "approval" && first.truncated)
      this.originals.set(first.seq, input.body ?? "");
    return added;
  }

  /**
   * Opens `config` (which names this table as its parent) as a sub-table, as `opener`: the parent
   * records subtable_opened, the child's table_opened carries each seat's join from this ledger.
   */
  async openChild(opener: string, config: TableConfig): Promise<TestTable> {
    const request = await signSubtable(await this.seatKey(opener), config, opener);
    const [opened] = this.l.append(subtableOpenedDraft(this.state, request));
    if (!opened || opened.kind !== "system" || opened.subkind !== "subtable_opened") throw new Error("not opened");
    const joins = Object.keys(config.seats ?? {}).map((seat) =>
      carriedJoinOf(this.l.entries[this.state.seats[seat]!.joined - 1]!, seat)!,
    );
    const child = new TestTable(this.k, config);
    child.l.now = this.l.now;
    child.l.append(childOpeningDraft(opened, { seq: opened.seq, joins }, this.k.relay.publicKeyText));
    return child;
  }

  /** Appends closed sub-table `child`'s relay-signed result to this ledger, as the child's object would. */
  async report(child: TestTable): Promise<Entry[]> {
    const statement = resultStatement(child.state, { linkAt: (seq) => child.l.entries[seq - 1]?.link });
    const sig = await signStatement(this.k.relay, "result", statement);
    return this.l.append(subtableResultDraft({ statement, sig }, this.k.relay.publicKeyText));
  }

  /** The export text of the whole ledger with a head over it and every original body. */
  async exportText(): Promise<string> {
    return exportText(
      { table: this.state.table, relay: this.k.relay.publicKeyText },
      this.l.entries,
      [await this.l.head()],
      this.originals,
    );
  }

  /** This ledger as the TableDO's read paths (durable-objects/table/reading/reads.ts) see it, live. */
  reader() {
    const entries = this.l.entries;
    const originals = this.originals;
    return {
      get seq() {
        return entries.length;
      },
      range: (from: number, to: number, limit: number) =>
        entries.filter((e) => e.seq >= from && e.seq <= to).slice(0, limit),
      all: () => [...entries],
      originals: () => new Map(originals),
    };
  }

  say(seat: string, body = `${seat} speaks`): Promise<Entry[]> {
    return this.write(seat, { kind: "say", body });
  }

  get state(): TableState {
    return this.l.state!;
  }

  get holder(): string | null {
    return this.state.floor.holder;
  }
}

/** debateConfig(k, overrides) opened by ops with bot-tao, bot-jenny and judge joined, under cast `k`. */
export function debateTable(k: Cast, overrides: Partial<TableConfig> = {}): Promise<TestTable> {
  return TestTable.open(debateConfig(k, overrides), undefined, k);
}

/** broadcastConfig(k, overrides) opened by ops with the bots a, b and c joined (the human h not), under cast `k`. */
export function broadcastTable(k: Cast, overrides: Partial<TableConfig> = {}): Promise<TestTable> {
  return TestTable.open(broadcastConfig(k, overrides), ["a", "b", "c"], k);
}

/** Floor and close entries among `entries`, as compact data for assertions. */
export function moves(entries: readonly Entry[]): unknown[] {
  return entries.flatMap((e) =>
    e.kind === "system" && (e.subkind === "floor" || e.subkind === "table_closed") ? [{ [e.subkind]: e.data }] : [],
  );
}

/** Three owners, four declared seats (a, b, c bots in order; h a human outside the rotation). */
export function broadcastConfig(k: Cast, overrides: Partial<TableConfig> = {}): TableConfig {
  return {
    id: "t-broadcast",
    topic: "Which issue goes first?",
    owners: castOwners(k),
    seats: {
      a: { owner: "tao" },
      b: { owner: "jenny" },
      c: { owner: "ops" },
      h: { owner: "tao", human: true },
    },
    topology: { kind: "broadcast", order: ["a", "b", "c"], rounds: 2 },
    termination: { any: ["rounds_exhausted"] },
    ...overrides,
  };
}

/** An open room: seats x (tao), y (jenny) and human h (tao); ends after 50 authored entries. */
export function openConfig(k: Cast, overrides: Partial<TableConfig> = {}): TableConfig {
  return {
    id: "t-room",
    topic: "Price for the shared GPU hours",
    owners: castOwners(k),
    seats: { x: { owner: "tao" }, y: { owner: "jenny" }, h: { owner: "tao", human: true } },
    topology: { kind: "open" },
    termination: { any: [{ max_entries: 50 }] },
    ...overrides,
  };
}

/** JSON values in the canonical profile (§2): safe integers, well-formed strings of any code points, unique keys. */
export const integerJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.maxSafeInteger(),
    fc.string({ unit: "grapheme" }),
    fc.string({ unit: "binary" }),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(fc.string({ unit: "binary" }), tie("value"), { maxKeys: 5 }),
  ),
})).value;
