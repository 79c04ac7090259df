/**
 * One table's card in the principal window: built once, then filled again from each summary the
 * server sends (its parts are replaced in place, so an open or closed <details> stays as the owner
 * left it), and its transcript appended to as entries arrive. Signature badges follow the table's
 * verification. Each of the owner's own seats has a Revoke button that asks once more in the page
 * before the server is asked to sign.
 */
import type { EntryView, TableSummary } from "../wire.js";
import { button, h, type Doc, type El } from "../../page/dom.js";
import { entryItem, signatureBadge, taskRow, type Answer } from "./render.js";
import { withTimes } from "../../page/time.js";

/** What a card's buttons do besides answering tasks: ask the server to sign a pause, or lift this owner's own pause. */
export type Control = (table: string, action: "pause" | "resume", button: El) => void;

/** What a seat's confirmed Revoke does: ask the server to sign a revocation of `seat`; `done` is called with whether it was signed. */
export type Revoke = (table: string, seat: string, buttons: El[], done: (ok: boolean) => void) => void;

/** A table's card and the parts it refills. */
export class TableCard {
  readonly element: El;
  private readonly title: El;
  private readonly chips: El;
  private readonly facts: El;
  private readonly verdict: El;
  private readonly controls: El;
  private readonly tasks: El;
  private readonly tasksCount: El;
  private readonly seats: El;
  private readonly subtables: El;
  private readonly transcript: El;
  private readonly transcriptCount: El;
  private readonly signed: { seq: number; sig: El }[] = [];
  private entries = 0;
  private summary: TableSummary | null = null;
  /** The seat whose revocation the owner is being asked to confirm, if any (kept across summaries). */
  private confirming: string | null = null;

  constructor(
    private readonly doc: Doc,
    readonly table: string,
    private readonly answer: Answer,
    private readonly control: Control,
    private readonly revoke: Revoke,
  ) {
    this.title = h(doc, "h2", "topic", table);
    this.chips = h(doc, "div", "chips");
    this.facts = h(doc, "p", "facts");
    this.verdict = h(doc, "div", "verdict");
    this.controls = h(doc, "div", "controls");
    this.tasksCount = h(doc, "summary", "", "Tasks");
    this.tasks = h(doc, "ul", "tasks");
    this.seats = h(doc, "ul", "seats");
    this.subtables = h(doc, "ul", "subtables");
    this.transcriptCount = h(doc, "summary", "", "Transcript");
    this.transcript = h(doc, "ol", "transcript");
    // It scrolls (app.css caps its height): focusable and named, so a keyboard can scroll it too.
    this.transcript.setAttribute("tabindex", "0");
    this.transcript.setAttribute("aria-label", `Transcript of ${table}`);
    const tasks = h(doc, "details", "", this.tasksCount, this.tasks);
    const transcript = h(doc, "details", "", this.transcriptCount, this.transcript);
    tasks.open = true;
    transcript.open = true;
    this.element = h(
      doc,
      "article",
      "table-card",
      h(doc, "header", "", this.title, h(doc, "code", "table-id", table), this.chips),
      this.facts,
      this.verdict,
      this.controls,
      tasks,
      h(doc, "details", "", h(doc, "summary", "", "Seats"), this.seats),
      h(doc, "details", "", h(doc, "summary", "", "Sub-tables"), this.subtables),
      transcript,
    );
    this.element.setAttribute("id", `table-${table}`);
  }

  /** Fills every part from `summary`. */
  update(summary: TableSummary): void {
    const doc = this.doc;
    this.summary = summary;
    this.element.setAttribute("data-status", summary.status);
    this.title.textContent = summary.topic === "" ? summary.table : summary.topic;
    this.chips.replaceChildren(...chips(doc, summary));
    const budgets = summary.budgets.map((b) => `${b.label} ${b.used}${b.limit === null ? "" : ` / ${b.limit}`}`);
    const parent = summary.parent === null ? [] : [`sub-table of ${summary.parent}`];
    this.facts.textContent = [
      ...parent,
      `floor: ${summary.floor ?? "nobody"}`,
      ...budgets,
      summary.head ? `head #${summary.head.seq} ${summary.head.link}…` : "no head yet",
    ].join(" · ");
    this.fillVerdict(summary);
    this.fillControls(summary);
    this.tasksCount.textContent = `Tasks (${summary.tasks.length})`;
    this.tasks.replaceChildren(...summary.tasks.map((task) => taskRow(doc, summary.table, task, this.answer)));
    this.fillSeats(summary);
    this.subtables.replaceChildren(
      ...summary.subtables.map((s) =>
        h(
          doc,
          "li",
          "",
          ...withTimes(doc, `${s.table}: ${s.topic}${s.closed === null ? " (open)" : ` (closed: ${s.closed})`}`),
        ),
      ),
    );
    for (const { seq, sig } of this.signed) signatureBadge(sig, seq, summary.verification);
  }

  /** Appends transcript entries (after `reset`, replaces them), keeping the view at the newest if it was there. */
  add(items: readonly EntryView[], reset: boolean): void {
    const list = this.transcript;
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    if (reset) {
      list.replaceChildren();
      this.signed.length = 0;
      this.entries = 0;
    }
    for (const e of items) {
      const { item, sig } = entryItem(this.doc, e);
      if (sig) {
        this.signed.push({ seq: e.seq, sig });
        signatureBadge(sig, e.seq, this.summary?.verification ?? null);
      }
      list.append(item);
    }
    this.entries += items.length;
    this.transcriptCount.textContent = `Transcript (${this.entries})`;
    if (atEnd) list.scrollTop = list.scrollHeight;
  }

  /** The seats, a revoked one marked as such, and on each of the owner's present seats Revoke, then its confirmation. */
  private fillSeats(summary: TableSummary): void {
    const doc = this.doc;
    if (!summary.seats.some((s) => s.can_revoke && s.name === this.confirming)) this.confirming = null;
    this.seats.replaceChildren(
      ...summary.seats.map((s) => {
        const gone = s.revoked !== null ? `, REVOKED at #${s.revoked}` : s.present ? "" : ", left";
        const item = h(
          doc,
          "li",
          [s.mine ? "mine" : "", s.revoked !== null ? "revoked" : ""].join(" ").trim(),
          `${s.name} (owner ${s.owner}${s.human ? ", human" : ""}${gone})${s.mine ? " · yours" : ""}`,
        );
        item.setAttribute("data-seat", s.name);
        if (s.can_revoke) item.append(this.revokeActions(summary.table, s.name));
        return item;
      }),
    );
  }

  /** Revoke…; once clicked, what it does and Yes (sign) or Cancel. */
  private revokeActions(table: string, seat: string): El {
    const doc = this.doc;
    const redraw = (confirming: string | null) => {
      this.confirming = confirming;
      if (this.summary) this.fillSeats(this.summary);
    };
    if (this.confirming !== seat)
      return h(
        doc,
        "span",
        "seat-actions",
        button(doc, "revoke small", "Revoke…", () => redraw(seat)),
      );
    const buttons: El[] = [];
    const yes = button(doc, "revoke-confirm small", "Yes, revoke (sign)", () =>
      this.revoke(table, seat, buttons, (ok) => (ok ? redraw(null) : undefined)),
    );
    const cancel = button(doc, "cancel small", "Cancel", () => redraw(null));
    buttons.push(yes, cancel);
    return h(
      doc,
      "div",
      "confirm",
      h(
        doc,
        "span",
        "",
        `Revoke ${seat} with your owner key? It leaves the table now, its open sockets close, and the relay refuses its key here from then on. Only you can seat a bot there again, with a new key.`,
      ),
      yes,
      cancel,
    );
  }

  private fillVerdict(summary: TableSummary): void {
    const v = summary.verification;
    if (v === null && summary.status === "caught") {
      this.verdict.className = "verdict refuted";
      this.verdict.replaceChildren(
        h(this.doc, "strong", "", "chain REFUTED"),
        h(
          this.doc,
          "div",
          "line",
          "this home keeps evidence that the relay forked or truncated this table (see the banner)",
        ),
      );
      return;
    }
    if (v === null) {
      this.verdict.className = "verdict pending";
      this.verdict.replaceChildren(h(this.doc, "strong", "", "not verified yet"));
      return;
    }
    this.verdict.className = `verdict ${v.verdict.toLowerCase()}`;
    const where = v.refuted_seq === null ? "" : ` at #${v.refuted_seq}`;
    this.verdict.replaceChildren(
      h(this.doc, "strong", "", `chain ${v.verdict}${where}`),
      ...v.lines.map((line) => h(this.doc, "div", "line", ...withTimes(this.doc, line))),
    );
  }

  private fillControls(summary: TableSummary): void {
    const action = summary.control;
    if (action === null) return this.controls.replaceChildren();
    const label = action === "pause" ? "Pause this table (sign)" : "Lift your pause (sign)";
    const b: El = button(this.doc, action, label, () => this.control(summary.table, action, b));
    this.controls.replaceChildren(b);
  }
}

function chips(doc: Doc, s: TableSummary): El[] {
  const out = [h(doc, "span", `chip status-${s.status}`, s.status === "caught" ? "RELAY CAUGHT" : s.status)];
  if (s.closed !== null) out.push(h(doc, "span", "chip closed", `closed: ${s.closed}`));
  if (s.pauses.length > 0)
    out.push(
      h(
        doc,
        "span",
        "chip paused",
        `PAUSED by ${s.pauses.map((p) => `${p.owner} (${p.via === "owner" ? "owner key" : p.via}${p.mine ? ", yours" : ""})`).join(", ")}`,
      ),
    );
  if (s.problem !== null)
    out.push(h(doc, "span", "chip problem", ...withTimes(doc, `${s.problem.code}: ${s.problem.message}`)));
  return out;
}
