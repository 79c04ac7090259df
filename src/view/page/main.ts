/**
 * The principal window's page script (bundled to dist/view/app.js by scripts/build-view.mjs). It
 * takes the window's token from the URL's fragment (keeping it for this tab only, out of the
 * address bar), follows the local server's live stream, and
 * shows what the server verified: tables, transcripts, tasks, channels, the evidence banner and
 * what never left the machine (held messages with their Approve and Reject), a Revoke, confirmed
 * in the page, on each of the owner's seats, the owner in the loop (loop.ts: questions,
 * instructions, deals), and the owner's markets (markets.ts: listings, matches and their rooms,
 * the allowance). Opened at one decision an agent asked for (`#decision=…`, decision.ts), it
 * shows that decision alone.
 * Its buttons only ask the local server to sign; the page holds no key and talks to nothing else.
 */
import type { TableSummary, ViewEvent } from "../wire.js";
import {
  answer as answerQuestion,
  approve,
  control,
  deal,
  enterRoom,
  follow,
  gate,
  instruct,
  reconcile,
  revoke,
  type Outcome,
} from "./api.js";
import { TableCard, type Revoke } from "./card.js";
import { showDecision, takeDecision } from "./decision.js";
import { byId, h, theDocument, theTab, type Doc, type El, type Tab } from "../../page/dom.js";
import { LoopPanel } from "./loop.js";
import { MarketsPanel } from "./markets.js";
import { channelItem, evidenceBanner, localItems, waitingCard, type Answer, type GateAnswer } from "./render.js";
import { refreshTimes, withTimes } from "../../page/time.js";

/** A table the page shows: its card and the latest summary. */
interface Shown {
  card: TableCard;
  summary: TableSummary;
}

/** A window's token: 32 random bytes in base64url (server.ts). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The window's token: from the URL's fragment (then kept for this tab only and taken out of the address bar, history and bookmarks), or as kept before a reload (a fragment that is no token, such as a link to a table's card, leaves it as kept). */
function takeToken(doc: Doc, tab: Tab): string {
  const given = doc.location.hash.replace(/^#/, "");
  if (TOKEN.test(given)) {
    tab.sessionStorage.setItem("trestle-window-token", given);
    tab.history.replaceState(null, "", "/");
    return given;
  }
  return tab.sessionStorage.getItem("trestle-window-token") ?? "";
}

function main(doc: Doc, tab: Tab): void {
  const decision = takeDecision(doc, tab);
  if (decision !== null) return showDecision(doc, decision);
  const token = takeToken(doc, tab);
  const notice = byId(doc, "notice");
  const say = (outcome: Outcome) => {
    notice.hidden = false;
    notice.className = `notice ${outcome.ok ? "ok" : "bad"}`;
    notice.replaceChildren(...withTimes(doc, outcome.message));
  };
  if (!TOKEN.test(token)) {
    return say({
      ok: false,
      message: "This page needs the full address trestle view printed (it ends with # and the window's token).",
    });
  }
  const tables = new Map<string, Shown>();
  /** Runs `ask` with `buttons` disabled, says its outcome, enables them again unless it was signed, and tells `done`. */
  const signing = (buttons: El[], ask: () => Promise<Outcome>, done: (ok: boolean) => void = () => undefined) => {
    for (const b of buttons) b.disabled = true;
    void ask().then((outcome) => {
      say(outcome);
      if (!outcome.ok) for (const b of buttons) b.disabled = false;
      done(outcome.ok);
    });
  };
  const answer: Answer = (table, task, verdict, buttons) =>
    signing(buttons, () => approve(token, { table, task, verdict }));
  const answerHeld: GateAnswer = (table, seat, message_sha256, verdict, buttons) =>
    signing(buttons, () => gate(token, { table, seat, message_sha256, verdict }));
  const pauseOrResume = (table: string, action: "pause" | "resume", b: El) => {
    b.disabled = true;
    void control(token, { table, action }).then((outcome) => {
      say(outcome);
      b.disabled = false;
    });
  };

  const revokeSeat: Revoke = (table, seat, buttons, done) =>
    signing(buttons, () => revoke(token, { table, seat }), done);

  const loop = new LoopPanel(
    doc,
    byId(doc, "loop"),
    byId(doc, "questions-count"),
    {
      answer: (table, question, given, buttons, done) =>
        signing(buttons, () => answerQuestion(token, { table, question, answer: given }), done),
      instruct: (table, seat, text, buttons, done) =>
        signing(buttons, () => instruct(token, { table, seat, text }), done),
      deal: (table, offer, buttons) => signing(buttons, () => deal(token, { table, offer })),
    },
    (table) => tables.get(table)?.summary.topic || table,
  );

  const markets = new MarketsPanel(doc, byId(doc, "markets-panel"), byId(doc, "markets"), {
    enterRoom: (table, match, buttons) => signing(buttons, () => enterRoom(token, { table, match })),
    reconcile: (table, buttons) =>
      signing(
        buttons,
        () => reconcile(token, { table }),
        () => {
          for (const b of buttons) b.disabled = false;
        },
      ),
    deal: (table, offer, buttons) => signing(buttons, () => deal(token, { table, offer })),
  });

  const shown = (summary: TableSummary): Shown => {
    let entry = tables.get(summary.table);
    if (!entry) {
      const card = new TableCard(doc, summary.table, answer, pauseOrResume, revokeSeat);
      byId(doc, "tables").append(card.element);
      entry = { card, summary };
      tables.set(summary.table, entry);
    }
    return entry;
  };

  const refreshLists = () => {
    const all = [...tables.values()].map((t) => t.summary);
    const waiting = all.flatMap((s) =>
      s.tasks.filter((task) => task.can_approve).map((task) => waitingCard(doc, s.table, s.topic, task, answer)),
    );
    byId(doc, "waiting-list").replaceChildren(
      ...(waiting.length > 0 ? waiting : [h(doc, "p", "empty", "Nothing waits for you.")]),
    );
    byId(doc, "waiting-count").textContent = String(waiting.length);
    const refused = all.filter((s) => s.status === "refused");
    byId(doc, "elsewhere-panel").hidden = refused.length === 0;
    byId(doc, "elsewhere").replaceChildren(
      ...refused.map((s) =>
        h(
          doc,
          "li",
          "",
          ...withTimes(doc, `${s.table}: ${s.problem?.code ?? "refused"} ${s.problem?.message ?? ""}`.trim()),
        ),
      ),
    );
    for (const t of tables.values()) t.card.element.hidden = t.summary.status === "refused";
  };

  const on = (event: ViewEvent) => {
    switch (event.type) {
      case "hello":
        byId(doc, "who").textContent =
          `owner ${event.owner} (key ${event.owner_key.slice(0, 10)}…) at ${event.relay} (relay key ${event.relay_key.slice(0, 10)}…)`;
        return;
      case "table": {
        const entry = shown(event.summary);
        entry.summary = event.summary;
        entry.card.update(event.summary);
        return refreshLists();
      }
      case "entries":
        return tables.get(event.table)?.card.add(event.items, event.reset);
      case "channels": {
        const list = byId(doc, "channels");
        if (event.error !== null)
          return list.replaceChildren(
            h(doc, "li", "channel failing", ...withTimes(doc, `cannot read the channels: ${event.error}`)),
          );
        return list.replaceChildren(
          ...(event.channels.length > 0
            ? event.channels.map((c) => channelItem(doc, c))
            : [h(doc, "li", "empty", "No chat app is bound to this owner key (trestle bind).")]),
        );
      }
      case "evidence":
        return evidenceBanner(doc, byId(doc, "banner"), event.items);
      case "local":
        return byId(doc, "local").replaceChildren(...localItems(doc, event.items, event.unreadable, answerHeld));
      case "loop":
        return loop.update(event);
      case "market":
        return markets.update(event);
      case "ping":
        return;
    }
  };

  // The relative words of every time shown ("in 23 min") follow the clock.
  setInterval(() => refreshTimes(doc), 30_000);
  const live = byId(doc, "live");
  void follow(token, {
    event: on,
    live: (up) => {
      live.className = `live ${up ? "on" : "off"}`;
      live.textContent = up ? "live" : "reconnecting…";
    },
    refused: (message) => say({ ok: false, message: `The window refused this page: ${message}` }),
  });
}

main(theDocument(), theTab());
