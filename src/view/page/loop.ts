/**
 * The principal window's "Your agents" panel (docs/VIEW.md): per table, the questions the owner's
 * seats asked (choice buttons or a text field, the deadline as a <time>; answered and expired ones said as
 * such), a box per seat to instruct it with the instructions it holds (numbered, verified or
 * unverified), and the room's deals (pending or done, who signed, a Sign button while this owner
 * has not). Its text fields are kept across updates, so what the owner is typing survives a new
 * event. The buttons only ask the server to sign.
 */
import type { AnswerBody, DealView, LoopEvent, QuestionView, SeatLoop } from "../wire.js";
import { button, h, type Doc, type El } from "../../page/dom.js";
import { timeElement, withTimes } from "../../page/time.js";

/** What the panel's buttons do: ask the server to sign; each disables `buttons` while it asks and calls `done` with whether it was signed. */
export interface LoopActions {
  answer(
    table: string,
    question: string,
    given: AnswerBody["answer"],
    buttons: El[],
    done: (ok: boolean) => void,
  ): void;
  instruct(table: string, seat: string, text: string, buttons: El[], done: (ok: boolean) => void): void;
  deal(table: string, offer: string, buttons: El[]): void;
}

/** The panel: one part per table, refilled from each table's latest `loop` event. */
export class LoopPanel {
  private readonly events = new Map<string, LoopEvent>();
  private readonly fields = new Map<string, El>();
  private ids = 0;

  constructor(
    private readonly doc: Doc,
    private readonly list: El,
    private readonly count: El,
    private readonly actions: LoopActions,
    /** The table's topic, for its heading (its id when unknown). */
    private readonly topic: (table: string) => string,
  ) {}

  /** Shows `event` as its table's part. */
  update(event: LoopEvent): void {
    this.events.set(event.table, event);
    const parts = [...this.events.values()]
      .filter((e) => e.questions.length + e.seats.length + e.deals.length > 0 || e.problem !== null)
      .map((e) => this.part(e));
    this.list.replaceChildren(
      ...(parts.length > 0
        ? parts
        : [h(this.doc, "p", "empty", "None of your seats asked you anything, and no deal waits.")]),
    );
    this.count.textContent = String(
      [...this.events.values()].reduce((n, e) => n + e.questions.filter((q) => q.state === "open").length, 0),
    );
  }

  private part(e: LoopEvent): El {
    const doc = this.doc;
    const part = h(doc, "article", "loop-table", h(doc, "h3", "", `${this.topic(e.table)} · table ${e.table}`));
    part.setAttribute("data-table", e.table);
    if (e.problem !== null)
      part.append(h(doc, "p", "badge bad", ...withTimes(doc, `cannot read your seats' questions: ${e.problem}`)));
    if (e.questions.length > 0)
      part.append(
        h(doc, "h4", "", "Questions from your seats"),
        h(doc, "div", "questions", ...e.questions.map((q) => this.question(e.table, q))),
      );
    if (e.deals.length > 0)
      part.append(
        h(doc, "h4", "", "Deals"),
        h(
          doc,
          "div",
          "deals",
          ...e.deals.map((d) => dealItem(doc, d, (buttons) => this.actions.deal(e.table, d.offer, buttons))),
        ),
      );
    for (const seat of e.seats) part.append(this.seat(e.table, seat));
    return part;
  }

  private question(table: string, q: QuestionView): El {
    const doc = this.doc;
    const item = h(
      doc,
      "div",
      `question question-${q.state}`,
      h(doc, "div", "where", `from ${q.seat} · `, ...stateWords(doc, q)),
      h(doc, "blockquote", "body", q.lines.join("\n")),
    );
    item.setAttribute("data-question", q.id);
    if (q.answer) {
      const how = q.answer.verified ? "signed with your key" : `via ${q.answer.via}: the relay's word, not a signature`;
      item.append(
        h(
          doc,
          "p",
          "answer",
          h(doc, "span", `badge ${q.answer.verified ? "ok" : "warn"}`, how),
          ` answered: ${q.answer.lines.join(" ")}`,
        ),
      );
    }
    if (q.state !== "open") return item;
    const buttons: El[] = [];
    if (q.choices) {
      q.choices.forEach((choice, index) =>
        buttons.push(
          button(doc, "choice", choice, () =>
            this.actions.answer(table, q.id, { choice: index }, buttons, () => undefined),
          ),
        ),
      );
      item.append(h(doc, "div", "actions choices", ...buttons));
      return item;
    }
    const field = this.field(`q:${table}:${q.id}`, "input");
    buttons.push(
      button(doc, "approve small", "Answer (sign)", () => {
        if (field.value.trim() === "") return;
        this.actions.answer(table, q.id, { text: field.value }, buttons, (ok) => {
          if (ok) field.value = "";
        });
      }),
    );
    item.append(this.labelled(field, `Your answer to ${q.seat}`), h(doc, "div", "actions", ...buttons));
    return item;
  }

  private seat(table: string, s: SeatLoop): El {
    const doc = this.doc;
    const item = h(doc, "div", "seat-loop", h(doc, "h4", "", `Instruct ${s.seat}`));
    item.setAttribute("data-seat", s.seat);
    if (s.problem !== null)
      item.append(
        h(doc, "p", "hint", ...withTimes(doc, `Its instructions cannot be listed from this machine: ${s.problem}`)),
      );
    if (s.instructions.length > 0) {
      item.append(
        h(
          doc,
          "ol",
          "instructions",
          ...s.instructions.map((i) => {
            const li = h(
              doc,
              "li",
              "",
              h(
                doc,
                "span",
                `badge ${i.verified ? "ok" : "warn"}`,
                i.verified ? "verified" : `UNVERIFIED (via ${i.via})`,
              ),
              ` #${i.n} ${i.lines.join(" ")}`,
            );
            li.setAttribute("data-n", String(i.n));
            return li;
          }),
        ),
      );
    }
    const field = this.field(`i:${table}:${s.seat}`, "textarea");
    const buttons: El[] = [];
    buttons.push(
      button(doc, "small", "Send instruction (sign)", () => {
        if (field.value.trim() === "") return;
        this.actions.instruct(table, s.seat, field.value, buttons, (ok) => {
          if (ok) field.value = "";
        });
      }),
    );
    item.append(this.labelled(field, `Instruction to ${s.seat}`), h(doc, "div", "actions", ...buttons));
    return item;
  }

  /** The text field kept under `key` (made once, so its value and focus survive a refill). */
  private field(key: string, tag: "input" | "textarea"): El {
    let field = this.fields.get(key);
    if (!field) {
      field = h(this.doc, tag, "field");
      field.setAttribute("id", `loop-field-${(this.ids += 1)}`);
      if (tag === "input") field.setAttribute("type", "text");
      else field.setAttribute("rows", "2");
      field.setAttribute("maxlength", "1000");
      this.fields.set(key, field);
    }
    return field;
  }

  private labelled(field: El, text: string): El {
    const label = h(this.doc, "label", "field-label", text);
    label.setAttribute("for", field.id);
    return h(this.doc, "div", "field-row", label, field);
  }
}

/** A room's deal: its status's label once, as the badge, what it means and its terms, and Sign the deal while this owner has not signed (`sign` asks the server, with the buttons to disable). */
export function dealItem(doc: Doc, d: DealView, sign: (buttons: El[]) => void): El {
  const item = h(
    doc,
    "div",
    `deal deal-${d.status}`,
    h(doc, "span", `badge ${d.status === "done" ? "ok" : "warn"}`, d.label),
    h(doc, "div", "body", ...withTimes(doc, d.lines.join("\n"))),
  );
  item.setAttribute("data-offer", d.offer);
  if (d.can_sign) {
    const buttons: El[] = [];
    buttons.push(button(doc, "approve small", "Sign the deal (sign)", () => sign(buttons)));
    item.append(h(doc, "div", "actions", ...buttons));
  }
  return item;
}

function stateWords(doc: Doc, q: QuestionView): (El | string)[] {
  if (q.state === "open") return ["answer by ", timeElement(doc, q.deadline)];
  if (q.state === "expired") return ["expired at ", timeElement(doc, q.deadline), ": not answered"];
  return ["answered"];
}
