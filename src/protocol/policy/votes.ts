/**
 * Votes and quorum (docs/SPEC.md §5.8). A `vote` answers an open proposal (`re`) with yes, no or
 * abstain; it needs no floor. Each seat votes once per proposal; when the quorum counts owners,
 * each owner votes once (through any of its seats). When the yes votes reach the quorum of
 * `termination.any`, the vote causes a `system/decision` entry carrying the proposal, and the
 * quorum condition closes the table.
 */
import { TrestleError } from "../errors.js";
import { LIMITS } from "../limits/limits.js";
import type { Electorate, Quorum, TableConfig } from "../schemas/config.js";
import type { AuthoredDraft, SystemDraftOf, SystemEntryOf, UnchainedEntry } from "../schemas/entry.js";
import { own } from "../encoding/records.js";
import { presentSeats, type ProposalState, type TableState } from "./state.js";

type VoteDraft = Extract<AuthoredDraft, { kind: "vote" }>;
type Ballot = Extract<UnchainedEntry, { kind: "vote" | "proposal" }>;

/** The quorum rule of a config (its first `{ quorum }` termination condition), if any. */
export function quorumOf(config: TableConfig): Quorum | null {
  for (const condition of config.termination.any) {
    if (typeof condition === "object" && "quorum" in condition) return condition.quorum;
  }
  return null;
}

/** Who votes: the quorum's electorate, or each seat when the table has no quorum rule. */
function electorateOf(config: TableConfig): Electorate {
  return quorumOf(config)?.of ?? "seats";
}

/** Throws the refusal for a vote, or returns when it may be recorded. */
export function checkVote(state: TableState, draft: VoteDraft): void {
  const proposal = state.proposals.find((p) => p.seq === draft.re);
  if (!proposal) {
    throw new TrestleError("E_NOT_ALLOWED", `entry ${draft.re} is not a proposal open for votes`, {
      open: state.proposals.map((p) => p.seq),
    });
  }
  if (proposal.votes.some((v) => v.seat === draft.seat)) {
    throw new TrestleError("E_NOT_ALLOWED", `"${draft.seat}" already voted on proposal ${draft.re}`);
  }
  // An owner's vote counts through a present seat only (quorumDecision), so a seat that left frees its owner to vote again.
  const owner = own(state.seats, draft.seat)?.owner;
  if (
    electorateOf(state.config) === "owners" &&
    proposal.votes.some((v) => v.owner === owner && own(state.seats, v.seat)?.left === null)
  ) {
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `owner "${owner}" already voted on proposal ${draft.re} through another seat`,
    );
  }
}

/** Records a proposal (opening it for votes) or a vote (mutates the state). */
export function applyBallot(state: TableState, entry: Ballot): void {
  if (entry.kind === "proposal") {
    const proposal: ProposalState = { seq: entry.seq, seat: entry.seat, body: entry.body, votes: [] };
    if (entry.refs) proposal.refs = [...entry.refs];
    state.proposals.push(proposal);
    if (state.proposals.length > LIMITS.open_proposals) state.proposals.shift();
    return;
  }
  const owner = own(state.seats, entry.seat)?.owner ?? "";
  state.proposals.find((p) => p.seq === entry.re)?.votes.push({ seat: entry.seat, owner, choice: entry.choice });
}

/** Records a decision reached by quorum: the proposal closes to votes and the decision is in force. */
export function applyQuorumDecision(state: TableState, entry: Pick<SystemEntryOf<"decision">, "seq" | "data">): void {
  const { proposal, seat, body, refs } = entry.data;
  state.proposals = state.proposals.filter((p) => p.seq !== proposal);
  state.decisions.push({ seq: entry.seq, seat, body, ...(refs ? { refs: [...refs] } : {}), by: "quorum" });
}

/** The decision a just-applied vote causes, when the yes votes on its proposal reach the quorum; else null. */
export function quorumDecision(
  state: TableState,
  vote: Extract<UnchainedEntry, { kind: "vote" }>,
): SystemDraftOf<"decision"> | null {
  const quorum = quorumOf(state.config);
  const proposal = state.proposals.find((p) => p.seq === vote.re);
  if (!quorum || !proposal) return null;
  const present = presentSeats(state);
  const voters = new Set(present.map((s) => s.name));
  const electorate = quorum.of === "seats" ? present.length : new Set(present.map((s) => s.owner)).size;
  const needed =
    "n" in quorum ? quorum.n : Math.max(1, Math.ceil((quorum.fraction.num * electorate) / quorum.fraction.den));
  const count = (choice: string) => proposal.votes.filter((v) => v.choice === choice && voters.has(v.seat)).length;
  const yes = count("yes");
  if (yes < needed) return null;
  return {
    table: state.table,
    seat: null,
    kind: "system",
    subkind: "decision",
    data: {
      proposal: proposal.seq,
      seat: proposal.seat,
      body: proposal.body,
      ...(proposal.refs ? { refs: [...proposal.refs] } : {}),
      of: quorum.of,
      yes,
      no: count("no"),
      abstain: count("abstain"),
      electorate,
      needed,
    },
    author: null,
  };
}
