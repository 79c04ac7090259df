/**
 * Pieces of the principal window built from the server's events: a transcript entry with its
 * badges, a task waiting for the owner with its effects in plain words and the buttons that ask
 * the server to sign, a task's line, a channel's line, the evidence banner and what never left the
 * machine (with the buttons that answer a held message). Everything shown
 * arrives as text and is put in the document as text; every instant in trestle's own words is a
 * <time> in the viewer's zone (time.ts), while what a seat wrote is shown as it wrote it.
 */
import type { ChannelView, EffectWords, EntryView, EvidenceView, LocalItem, TaskView, Verification } from "../wire.js";
import { button, h, type Doc, type El } from "../../page/dom.js";
import { timeElement, withTimes } from "../../page/time.js";

/** What a task's buttons do: ask the server to sign `verdict` on `task` of `table`. */
export type Answer = (table: string, task: string, verdict: "approve" | "reject", buttons: El[]) => void;

/** What a held message's buttons do: ask the server to sign `verdict` on message `hash` held for `seat` at `table`. */
export type GateAnswer = (
  table: string,
  seat: string,
  hash: string,
  verdict: "approve" | "reject",
  buttons: El[],
) => void;

/** One transcript entry, and its signature badge (null for entries nobody signed) for `signatureBadge` to update. */
export function entryItem(doc: Doc, e: EntryView): { item: El; sig: El | null } {
  const head = h(
    doc,
    "div",
    "entry-head",
    h(doc, "span", "seq", `#${e.seq}`),
    h(doc, "span", "who", e.who),
    h(doc, "span", "kind", e.kind),
  );
  if (e.about !== "") head.append(h(doc, "span", "about", ...withTimes(doc, e.about)));
  const sig = e.signed ? h(doc, "span", "badge pending", "signature: checking") : null;
  head.append(sig ?? h(doc, "span", "badge relay", "written by the relay"));
  if (e.via !== null) head.append(h(doc, "span", "badge warn", `via ${e.via}: the relay's word, not a signature`));
  if (e.truncated !== null)
    head.append(h(doc, "span", "badge warn", `cut by the relay (${e.truncated} chars written)`));
  if (e.mine) head.append(h(doc, "span", "badge mine", "yours"));
  const item = h(doc, "li", `entry role-${e.role}${e.mine ? " mine" : ""}`, head);
  item.setAttribute("data-seq", String(e.seq));
  // A seat's body is its own words; the relay's and an owner's entries are trestle's words about them.
  if (e.lines.length > 0)
    item.append(
      h(doc, "div", "body", ...(e.role === "seat" ? [e.lines.join("\n")] : withTimes(doc, e.lines.join("\n")))),
    );
  if (e.effects.length > 0)
    item.append(
      h(doc, "ul", "effects", ...e.effects.map((text) => h(doc, "li", "", ...withTimes(doc, `effect ${text}`)))),
    );
  return { item, sig };
}

/** Sets a signed entry's badge from the table's verification: checked, refuted at this entry, or not yet checked. */
export function signatureBadge(sig: El, seq: number, verification: Verification | null): void {
  if (verification?.refuted_seq === seq) {
    sig.className = "badge bad";
    sig.textContent = "REFUTED here";
  } else if (verification !== null && seq <= verification.through) {
    sig.className = "badge ok";
    sig.textContent = "signature verified";
  } else {
    sig.className = "badge pending";
    sig.textContent = "signature: checking";
  }
}

/** A task waiting for this owner: where it comes from, its effects in plain words, Approve and Reject. */
export function waitingCard(doc: Doc, table: string, topic: string, task: TaskView, answer: Answer): El {
  const buttons: El[] = [];
  buttons.push(
    button(doc, "approve", "Approve (sign)", () => answer(table, task.id, "approve", buttons)),
    button(doc, "reject", "Reject (sign)", () => answer(table, task.id, "reject", buttons)),
  );
  const card = h(
    doc,
    "article",
    "waiting-task",
    h(doc, "h3", "", `Task ${task.id}`),
    h(
      doc,
      "p",
      "where",
      `${topic === "" ? table : topic} · table ${table} · proposed by ${task.proposer} in #${task.proposal}`,
    ),
  );
  card.setAttribute("data-task", task.id);
  if (task.proposal_lines.length > 0) card.append(h(doc, "blockquote", "body", task.proposal_lines.join("\n")));
  card.append(
    h(doc, "p", "asks", "If you approve, your side will:"),
    h(doc, "ul", "effect-words", ...task.effects.map((e) => effectItem(doc, e))),
  );
  card.append(h(doc, "div", "actions", ...buttons));
  return card;
}

function effectItem(doc: Doc, effect: EffectWords): El {
  const item = h(doc, "li", "", h(doc, "strong", "", effect.action), " on ", h(doc, "code", "", effect.resource));
  if (effect.args.length > 0) item.append(h(doc, "ul", "args", ...effect.args.map((arg) => h(doc, "li", "", arg))));
  return item;
}

/** A task's line in its table: id, state, owner, executor, and Reject for this owner's task that has not run. */
export function taskRow(doc: Doc, table: string, task: TaskView, answer: Answer): El {
  const row = h(
    doc,
    "li",
    `task state-${task.state}`,
    h(doc, "span", "task-id", task.id),
    h(doc, "span", "state", task.state.replace("_", " ")),
    h(
      doc,
      "span",
      "task-more",
      `owner ${task.owner} · executor ${task.executor ?? "-"} · proposed in #${task.proposal}`,
    ),
  );
  row.setAttribute("data-task", task.id);
  if (task.can_reject && !task.can_approve) {
    const buttons: El[] = [];
    buttons.push(button(doc, "reject small", "Reject (sign)", () => answer(table, task.id, "reject", buttons)));
    row.append(...buttons);
  }
  return row;
}

/** One notification channel. */
export function channelItem(doc: Doc, channel: ChannelView): El {
  const label = {
    ok: "ok",
    unproven: "UNPROVEN",
    failing: "failing",
    quota_exhausted: "quota exhausted",
    removed: "REMOVED",
    migrated: "MIGRATED",
  }[channel.state];
  return h(
    doc,
    "li",
    `channel ${channel.state}`,
    h(doc, "span", `badge ${channel.state === "ok" ? "ok" : channel.state === "unproven" ? "warn" : "bad"}`, label),
    " ",
    ...withTimes(doc, channel.line),
  );
}

/** The loud banner: every piece of evidence this home keeps against the relay, and what to do. */
export function evidenceBanner(doc: Doc, banner: El, items: readonly EvidenceView[]): void {
  banner.hidden = items.length === 0;
  if (items.length === 0) return banner.replaceChildren();
  const tables = [...new Set(items.map((e) => e.table))];
  banner.replaceChildren(
    h(doc, "h2", "", "THE RELAY WAS CAUGHT"),
    h(
      doc,
      "p",
      "",
      "This machine holds proof that the relay forked or truncated a table's ledger. Do not trust what it shows for these tables, and do not sign anything there until you know why.",
    ),
    h(
      doc,
      "ul",
      "",
      ...items.map((e) =>
        h(
          doc,
          "li",
          "",
          `${e.table}: ${e.kind} at #${e.seq}`,
          ...(e.recorded_at === null ? [] : [", recorded ", timeElement(doc, e.recorded_at)]),
          ": ",
          ...withTimes(doc, e.message),
        ),
      ),
    ),
    h(
      doc,
      "p",
      "hint",
      `The evidence is kept in this home: trestle evidence ${tables.length === 1 ? `--table ${tables[0]}` : ""}`.trim(),
    ),
  );
}

/** The "never left this machine" panel: each record of the seats' private journals, newest first; a held message with where it stands and its buttons. */
export function localItems(doc: Doc, items: readonly LocalItem[], unreadable: number, answer: GateAnswer): El[] {
  const out = items.map((item) => {
    const badge = { rationale: "badge", note: "badge mine", refusal: "badge bad", held: "badge warn" }[item.kind];
    const element = h(
      doc,
      "div",
      `item local-${item.kind}`,
      h(doc, "div", "entry-head", h(doc, "span", badge, ...withTimes(doc, item.title))),
      h(doc, "div", "where", timeElement(doc, item.at), ` · ${item.table} · ${item.seat}`),
    );
    // A held message is described in trestle's words; a rationale, a note or a refused message is the seat's own.
    if (item.lines.length > 0)
      element.append(
        h(
          doc,
          "div",
          "body",
          ...(item.kind === "held" ? withTimes(doc, item.lines.join("\n")) : [item.lines.join("\n")]),
        ),
      );
    if (item.held) element.append(heldActions(doc, item, item.held, answer));
    return element;
  });
  if (out.length === 0) out.push(h(doc, "p", "empty", "Nothing recorded yet."));
  if (unreadable > 0)
    out.push(
      h(
        doc,
        "p",
        "unreadable badge bad",
        `${unreadable} journal line(s) could not be read as records of their seat: changed by hand?`,
      ),
    );
  return out;
}

const HELD_WORDS: Record<NonNullable<LocalItem["held"]>["state"], string> = {
  pending: "waiting for your answer",
  approved: "approved: the seat sends it (trestle gate send, or its agent); a rejection still wins until then",
  rejected: "rejected: it will not be sent",
  sent: "sent",
};

/** A held message's state and hash, and the buttons its state allows: Approve and Reject while pending, Reject once approved (a rejection wins). */
function heldActions(doc: Doc, item: LocalItem, held: NonNullable<LocalItem["held"]>, answer: GateAnswer): El {
  const buttons: El[] = [];
  const ask = (verdict: "approve" | "reject") => () =>
    answer(item.table, item.seat, held.message_sha256, verdict, buttons);
  if (held.state === "pending") buttons.push(button(doc, "approve small", "Approve (sign)", ask("approve")));
  if (held.state === "pending" || held.state === "approved")
    buttons.push(button(doc, "reject small", "Reject (sign)", ask("reject")));
  const gate = h(
    doc,
    "div",
    `gate held-${held.state}`,
    h(doc, "span", "state", HELD_WORDS[held.state]),
    h(doc, "span", "hash", `message ${held.message_sha256.slice(0, 16)}…`),
    ...buttons,
  );
  gate.setAttribute("data-hash", held.message_sha256);
  return gate;
}
