/**
 * Which statement each ledger entry records, and who signed it. The relay checks a request's
 * signature against `statementOf(draft)` and an offline verifier checks the stored entry with the
 * very same function, so both always verify the same bytes (docs/SPEC.md §4).
 */
import type { RecordedStatement } from "./crypto.js";
import { canonicalSha256, sha256, textSha256, type HashFunction } from "../encoding/hash.js";
import type { TableConfig } from "../schemas/config.js";
import type { CreateStatement } from "../schemas/create.js";
import type { ApprovalDraft, EntryDraft, Submission } from "../schemas/entry.js";
import type { ApprovalStatement } from "../schemas/approval.js";
import { controlNonceKey, controlStatement } from "../policy/pause.js";
import { resultStatementOf, subtableStatement } from "./subtable-statements.js";
import type { EjectStatement, InviteStatement } from "../schemas/room.js";
import type { SystemDraftOf } from "../schemas/entry.js";
import { custodyStatementOf } from "./custody.js";
import { revokeNonceKey, revokeStatement } from "../policy/seat-revoke.js";
import { groupCodeStatementOf, groupNonceKey, groupUnbindStatementOf } from "./group-statements.js";

/** What a seat signs for a submission: the submission with `body` replaced by `body_sha256`. */
export function submissionStatement(submission: Submission): Record<string, unknown> {
  const { body, ...rest } = submission;
  return { ...rest, body_sha256: textSha256(body) };
}

/** What the creating owner signs for a config. */
export function createStatement(config: TableConfig, owner: string): CreateStatement {
  return { table: config.id, config_sha256: canonicalSha256(config), owner };
}

/** What an owner signs for an approval: exactly the statement fields of the approval entry. */
export function approvalStatement(entry: ApprovalStatement | ApprovalDraft): ApprovalStatement {
  const { table, task, proposal, effects_sha256, verdict, nonce } = entry;
  return { table, task, proposal, effects_sha256, verdict, nonce };
}

/** What the room's creator signed for an invite entry (purpose `room`). */
export function inviteStatementOf(entry: Pick<SystemDraftOf<"invite_issued">, "table" | "data">): InviteStatement {
  const { by: _by, ...fields } = entry.data;
  return { scope: "invite", table: entry.table, ...fields };
}

/** What the room's creator signed for an ejection (purpose `room`). */
export function ejectStatementOf(entry: Pick<SystemDraftOf<"seat_ejected">, "table" | "data">): EjectStatement {
  return { scope: "eject", table: entry.table, seat: entry.data.seat, nonce: entry.data.nonce };
}

/**
 * The key under which an entry's nonce is used once: per seat for entries, per table for joins,
 * per owner for approvals, pause/resume controls and seat revocations, per table for a room's invites (by invite
 * id), ejections and a market's group codes and unbindings, per position for a custody change (the seq it follows); null for entries
 * without a nonce. The
 * relay indexes it; verifiers check it.
 */
export function nonceKeyOf(entry: EntryDraft): string | null {
  if (entry.kind === "approval") return `approval:${entry.owner}:${entry.nonce}`;
  if (entry.kind !== "system") return `entry:${entry.seat}:${entry.nonce}`;
  if (entry.subkind === "seat_joined") return `join:${entry.data.join.nonce}`;
  if (entry.subkind === "table_paused" || entry.subkind === "table_resumed") return controlNonceKey(entry);
  if (entry.subkind === "subtable_opened") return `subtable:${entry.data.config.id}`;
  if (entry.subkind === "subtable_result") return `result:${entry.data.table}`;
  if (entry.subkind === "invite_issued") return `invite:${entry.data.invite}`;
  if (entry.subkind === "seat_ejected") return `eject:${entry.data.nonce}`;
  if (entry.subkind === "custody") return `custody:${entry.data.head.seq}`;
  if (entry.subkind === "seat_revoked") return revokeNonceKey(entry);
  if (entry.subkind === "group_bound" || entry.subkind === "group_unbound") return groupNonceKey(entry);
  return null;
}

/** The signed statement an entry records (a submission's body hashed with `hash`, the same digest whichever SHA-256 computes it); null for entries the relay makes on its own authority. */
export function statementOf(entry: EntryDraft, hash: HashFunction = sha256): RecordedStatement | null {
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
        return (
          entry.author && {
            purpose: "owner",
            statement: controlStatement(entry),
            key: entry.author.key,
            sig: entry.author.sig,
          }
        );
      case "subtable_opened":
        return {
          purpose: "subtable",
          statement: subtableStatement(entry.data.config, entry.data.opener),
          key: entry.author.key,
          sig: entry.author.sig,
        };
      case "subtable_result":
        return { purpose: "result", statement: resultStatementOf(entry), key: entry.author.key, sig: entry.author.sig };
      case "invite_issued":
        return { purpose: "room", statement: inviteStatementOf(entry), key: entry.author.key, sig: entry.author.sig };
      case "seat_ejected":
        return { purpose: "room", statement: ejectStatementOf(entry), key: entry.author.key, sig: entry.author.sig };
      case "custody":
        return {
          purpose: "custody",
          statement: custodyStatementOf(entry),
          key: entry.author.key,
          sig: entry.author.sig,
        };
      case "seat_revoked":
        return { purpose: "owner", statement: revokeStatement(entry), key: entry.author.key, sig: entry.author.sig };
      case "group_bound":
        return {
          purpose: "room",
          statement: groupCodeStatementOf(entry),
          key: entry.author.key,
          sig: entry.author.sig,
        };
      case "group_unbound":
        return {
          purpose: "room",
          statement: groupUnbindStatementOf(entry),
          key: entry.author.key,
          sig: entry.author.sig,
        };
      default:
        return null;
    }
  }
  if (entry.kind === "approval") {
    // A relay-attested approval (`via`, author null) records no signature; admit judges it.
    if (entry.author === null) return null;
    return { purpose: "approval", statement: approvalStatement(entry), key: entry.author.key, sig: entry.author.sig };
  }
  const { truncated, author, body, ...rest } = entry;
  const { seq: _s, ts: _t, leaf: _l, link: _k, ...authored } = rest as typeof rest & Record<string, unknown>;
  return {
    purpose: "entry",
    statement: { ...authored, body_sha256: truncated?.body_sha256 ?? textSha256(body, hash) },
    key: author.key,
    sig: author.sig,
  };
}
