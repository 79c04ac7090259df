/**
 * Which statement each ledger entry records, and who signed it. The relay checks a request's
 * signature against `statementOf(draft)` and an offline verifier checks the stored entry with the
 * very same function, so both always verify the same bytes (docs/SPEC.md §4).
 */
import type { SigningPurpose } from "./crypto.js";
import { canonicalSha256, textSha256 } from "./hash.js";
import type { TableConfig } from "./schemas/config.js";
import type { CreateStatement } from "./schemas/create.js";
import type { EntryDraft, Submission } from "./schemas/entry.js";
import { controlStatement } from "./policy/pause.js";
import { resultStatementOf, subtableStatement } from "./subtable-statements.js";

/** A statement, its purpose, and the key and signature recorded for it. */
export interface RecordedStatement {
  purpose: SigningPurpose;
  statement: unknown;
  key: string;
  sig: string;
}

/** What a seat signs for a submission: the submission with `body` replaced by `body_sha256`. */
export function submissionStatement(submission: Submission): Record<string, unknown> {
  const { body, ...rest } = submission;
  return { ...rest, body_sha256: textSha256(body) };
}

/** What the creating owner signs for a config. */
export function createStatement(config: TableConfig, owner: string): CreateStatement {
  return { table: config.id, config_sha256: canonicalSha256(config), owner };
}

/** The signed statement an entry records; null for entries the relay makes on its own authority. */
export function statementOf(entry: EntryDraft): RecordedStatement | null {
  if (entry.kind === "system") {
    switch (entry.subkind) {
      case "table_opened":
        if (entry.data.parent) {
          const statement = subtableStatement(entry.data.config, entry.data.parent.opener);
          return { purpose: "subtable", statement, key: entry.author.key, sig: entry.author.sig };
        }
        return {
          purpose: "create",
          statement: createStatement(entry.data.config, entry.data.creator),
          key: entry.author.key,
          sig: entry.author.sig,
        };
      case "seat_joined":
        return { purpose: "join", statement: entry.data.join, key: entry.author.key, sig: entry.author.sig };
      case "table_paused":
      case "table_resumed":
        return entry.author && { purpose: "owner", statement: controlStatement(entry), key: entry.author.key, sig: entry.author.sig };
      case "subtable_opened":
        return {
          purpose: "subtable",
          statement: subtableStatement(entry.data.config, entry.data.opener),
          key: entry.author.key,
          sig: entry.author.sig,
        };
      case "subtable_result":
        return { purpose: "result", statement: resultStatementOf(entry), key: entry.author.key, sig: entry.author.sig };
      default:
        return null;
    }
  }
  const { truncated, author, body, ...rest } = entry;
  const { seq: _s, ts: _t, leaf: _l, link: _k, ...authored } = rest as typeof rest & Record<string, unknown>;
  return {
    purpose: "entry",
    statement: { ...authored, body_sha256: truncated?.body_sha256 ?? textSha256(body) },
    key: author.key,
    sig: author.sig,
  };
}
