/**
 * The principal window's "Your markets" panel (docs/VIEW.md): per market the owner created or is a
 * member of, its listings (live first, each ended one with how it ended), its matches (the other
 * side, the words they share, the room's id and where it stands, the room's deals, and a button
 * that opens or enters the room as `trestle market room` does, or a link to the room's card once
 * the owner is in it), and its allowance across the market's rooms (the figures, every commitment,
 * and Reconcile). The panel is hidden while there is no market. Buttons only ask the server.
 */
import type { AllowanceView, MarketEvent, MarketMatch } from "../wire.js";
import { button, h, type Doc, type El } from "../../page/dom.js";
import { listingItem } from "../../page/listing-item.js";
import { dealItem } from "./loop.js";
import { withTimes } from "../../page/time.js";

/** What the panel's buttons do: ask the server; each disables `buttons` while it asks. */
export interface MarketActions {
  enterRoom(table: string, match: number, buttons: El[]): void;
  reconcile(table: string, buttons: El[]): void;
  deal(table: string, offer: string, buttons: El[]): void;
}

/** The class of the chip that says a room's state (its words: the state's name with spaces). */
const ROOM_CHIP: Record<MarketMatch["state"], string> = {
  not_opened: "",
  open: "status-live",
  deal_pending: "paused",
  deal_done: "status-live",
  no_deal: "closed",
  unknown: "problem",
};

/** The panel: one article per market, refilled from each market's latest event. */
export class MarketsPanel {
  private readonly events = new Map<string, MarketEvent>();

  constructor(
    private readonly doc: Doc,
    private readonly panel: El,
    private readonly list: El,
    private readonly actions: MarketActions,
  ) {}

  /** Shows `event` as its market's part. */
  update(event: MarketEvent): void {
    this.events.set(event.table, event);
    this.panel.hidden = false;
    this.list.replaceChildren(...[...this.events.values()].map((e) => this.market(e)));
  }

  private market(e: MarketEvent): El {
    const doc = this.doc;
    const live = e.listings.filter((l) => l.standing === "live").length;
    const title = h(doc, "h3", "", e.topic === "" ? e.table : e.topic);
    const chips = h(
      doc,
      "div",
      "chips",
      h(doc, "span", "chip", e.role === "creator" ? "you created it" : "member"),
      h(doc, "span", "chip", e.public ? "public" : "members only"),
    );
    const article = h(
      doc,
      "article",
      "market",
      h(doc, "header", "", title, h(doc, "code", "table-id", e.table), chips),
    );
    article.setAttribute("data-table", e.table);
    if (e.problem !== null) article.append(h(doc, "p", "badge bad", ...withTimes(doc, e.problem)));
    const listings =
      e.listings.length > 0
        ? h(doc, "ul", "listings", ...e.listings.map((l) => listingItem(doc, l)))
        : h(doc, "p", "empty", "You have no listings here.");
    const matches =
      e.matches.length > 0
        ? h(doc, "ul", "matches", ...e.matches.map((m) => this.match(e.table, m)))
        : h(doc, "p", "empty", "No match of yours yet.");
    article.append(
      h(doc, "h4", "", `Your listings (${live} live of ${e.listings.length})`),
      listings,
      h(doc, "h4", "", `Your matches (${e.matches.length})`),
      matches,
      h(doc, "h4", "", "Allowance across this market's rooms"),
      this.allowance(e.table, e.allowance),
    );
    return article;
  }

  private match(table: string, m: MarketMatch): El {
    const doc = this.doc;
    const theirs = m.side === "offer" ? "want" : "offer";
    const item = h(
      doc,
      "li",
      `match room-${m.state}`,
      h(
        doc,
        "div",
        "match-head",
        h(doc, "span", "seq", `#${m.seq}`),
        ` your ${m.side} `,
        h(doc, "q", "", m.title),
        ` with ${m.other}'s ${theirs} `,
        h(doc, "q", "", m.their_title),
        ` · ${m.quantity} unit${m.quantity === 1 ? "" : "s"}`,
      ),
      h(
        doc,
        "div",
        "match-words",
        m.sale === null ? `words in common: ${m.words.join(", ")}` : `sold by sealed bids at ${m.sale}`,
      ),
      h(
        doc,
        "div",
        "match-room",
        h(doc, "span", ["chip", ROOM_CHIP[m.state]].filter((c) => c !== "").join(" "), m.state.replace("_", " ")),
        " room ",
        h(doc, "code", "", m.room),
      ),
      h(doc, "div", "match-state", m.state_words),
    );
    item.setAttribute("data-match", String(m.seq));
    item.setAttribute("data-room", m.room);
    item.setAttribute("data-state", m.state);
    if (m.deals.length > 0)
      item.append(
        h(
          doc,
          "div",
          "deals",
          ...m.deals.map((d) => dealItem(doc, d, (buttons) => this.actions.deal(m.room, d.offer, buttons))),
        ),
      );
    const actions = h(doc, "div", "actions");
    if (m.action !== null) {
      const buttons: El[] = [];
      const label = m.action === "open" ? "Open the room (sign)" : "Enter the room (sign)";
      buttons.push(button(doc, "approve small", label, () => this.actions.enterRoom(table, m.seq, buttons)));
      actions.append(...buttons);
    }
    if (m.entered) {
      const link = h(doc, "a", "room-link", "Go to the room");
      link.setAttribute("href", `#table-${m.room}`);
      actions.append(link);
    }
    if (m.action !== null || m.entered) item.append(actions);
    return item;
  }

  private allowance(table: string, a: AllowanceView): El {
    const doc = this.doc;
    const figures = h(doc, "dl", "figures");
    for (const f of a.figures) {
      const value = h(doc, "dd", "", f.value);
      value.setAttribute("data-figure", f.name);
      figures.append(h(doc, "dt", "", f.label), value);
    }
    const block = h(doc, "div", "allowance", figures, ...a.lines.map((line) => h(doc, "p", "hint", line)));
    if (a.problem !== null) block.append(h(doc, "p", "badge bad", ...withTimes(doc, a.problem)));
    if (a.commitments.length > 0)
      block.append(
        h(
          doc,
          "ul",
          "commitments",
          ...a.commitments.map((c) => h(doc, "li", `commitment-${c.state}`, ...withTimes(doc, c.words))),
        ),
      );
    const buttons: El[] = [];
    buttons.push(button(doc, "small", "Reconcile with the rooms", () => this.actions.reconcile(table, buttons)));
    block.append(h(doc, "div", "actions", ...buttons));
    return block;
  }
}
