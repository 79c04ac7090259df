/**
 * WitnessDO: the one object (named "witness") holding a witness's state in SQLite: per origin the
 * checkpoint it last cosigned, and the evidence of conflicting checkpoints (decision 0399). Each
 * add-checkpoint runs alone (blockConcurrencyWhile), so checking the old size and storing the new
 * checkpoint are atomic, as tlog-witness asks; the judging is src/protocol/tlog's.
 */
import { DurableObject } from "cloudflare:workers";
import {
  addCheckpoint,
  cosignedCheckpoint,
  type WitnessAnswer,
  type WitnessStore,
} from "../../src/protocol/tlog/witness-service.js";
import {
  WitnessEvidenceSchema,
  WitnessRecordSchema,
  type WitnessEvidence,
} from "../../src/protocol/tlog/witness-judge.js";
import { runMigrations } from "../sqlite.js";
import { witnessSettings, type WitnessSettingsEnv } from "./settings.js";

const MIGRATIONS = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE records (origin TEXT PRIMARY KEY, record TEXT NOT NULL);
   CREATE TABLE evidence (id INTEGER PRIMARY KEY AUTOINCREMENT, origin TEXT NOT NULL, conflicting TEXT NOT NULL, evidence TEXT NOT NULL, UNIQUE (origin, conflicting));`,
];

/** The witness Worker's bindings: its one Durable Object and its settings. */
export interface WitnessEnv extends WitnessSettingsEnv {
  readonly WITNESS: DurableObjectNamespace<WitnessDO>;
}

/** At most this many pieces of evidence are listed, the oldest first. */
export const EVIDENCE_LIST_MAX = 1000;

/** The witness's state and its add-checkpoint; the only writer of its tables. */
export class WitnessDO extends DurableObject<WitnessEnv> {
  private readonly sql: SqlStorage;
  private readonly store: WitnessStore;

  constructor(ctx: DurableObjectState, env: WitnessEnv) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    runMigrations(this.sql, MIGRATIONS);
    this.store = {
      record: (origin) => {
        const row = this.sql
          .exec<{ record: string }>("SELECT record FROM records WHERE origin = ?", origin)
          .toArray()[0];
        return row ? WitnessRecordSchema.parse(JSON.parse(row.record)) : undefined;
      },
      save: (record) =>
        void this.sql.exec(
          "INSERT OR REPLACE INTO records (origin, record) VALUES (?, ?)",
          record.origin,
          JSON.stringify(record),
        ),
      keep: (evidence) =>
        void this.sql.exec(
          "INSERT OR IGNORE INTO evidence (origin, conflicting, evidence) VALUES (?, ?, ?)",
          evidence.origin,
          evidence.conflicting,
          JSON.stringify(evidence),
        ),
    };
  }

  /** The time the cosignature carries, in ms; tests may replace it. */
  now(): number {
    return Date.now();
  }

  /** One add-checkpoint, judged and stored with no other request in between. */
  async add(body: string): Promise<WitnessAnswer> {
    const { witness, logs } = await witnessSettings(this.env);
    return this.ctx.blockConcurrencyWhile(() =>
      addCheckpoint(body, { logs, store: this.store, witness, now: this.now() }),
    );
  }

  /** The monitor read of one origin hash. */
  async checkpoint(originHash: string): Promise<WitnessAnswer> {
    const { logs } = await witnessSettings(this.env);
    return cosignedCheckpoint(originHash, { logs, store: this.store });
  }

  /** The evidence kept, oldest first. */
  evidence(): WitnessEvidence[] {
    return this.sql
      .exec<{ evidence: string }>("SELECT evidence FROM evidence ORDER BY id LIMIT ?", EVIDENCE_LIST_MAX)
      .toArray()
      .map((row) => WitnessEvidenceSchema.parse(JSON.parse(row.evidence)));
  }
}
