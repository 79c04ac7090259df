/**
 * The principal window opened at one decision an agent asked its owner for (src/view/decisions.ts,
 * decision 0480): the link's fragment carries that decision's credential, kept for this tab only
 * and taken out of the address bar. The page shows the decision in the words the server wrote and
 * two buttons; Approve asks the local server to sign exactly that, Decline ends it unsigned. This
 * page can read and answer that one decision and nothing else.
 */
import type { DecisionViewWire } from "../wire.js";
import { decide, decisionView, type Outcome } from "./api.js";
import { button, byId, h, type Doc, type El, type Tab } from "../../page/dom.js";
import { withTimes } from "../../page/time.js";

/** Where the credential is kept for this tab. */
const KEPT = "trestle-decision";

/** The decision credential from a `#decision=<id>.<code>` fragment (kept for this tab, out of the address bar), or as kept before a reload; null on the whole window's pages. */
export function takeDecision(doc: Doc, tab: Tab): string | null {
  const given = /^#decision=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(doc.location.hash)?.[1];
  if (given !== undefined) {
    tab.sessionStorage.setItem(KEPT, given);
    tab.history.replaceState(null, "", "/");
    return given;
  }
  return doc.location.hash === "" ? tab.sessionStorage.getItem(KEPT) : null;
}

/** Shows the decision `credential` names in place of the whole window, with its Approve and Decline. */
export function showDecision(doc: Doc, credential: string): void {
  for (const id of ["main", "live"]) byId(doc, id).hidden = true;
  byId(doc, "who").textContent = "Your AI agent asked for this; only you decide. Your key stays on this machine.";
  const panel = byId(doc, "decision");
  panel.hidden = false;
  const render = (view: DecisionViewWire | null, outcome: Outcome | null) =>
    panel.replaceChildren(...decisionNodes(doc, credential, view, outcome, render));
  void decisionView(credential).then((result) => render(result.ok ? result.view : null, result.ok ? null : result));
}

function decisionNodes(
  doc: Doc,
  credential: string,
  view: DecisionViewWire | null,
  outcome: Outcome | null,
  render: (view: DecisionViewWire | null, outcome: Outcome | null) => void,
): El[] {
  const nodes: El[] = [h(doc, "h2", "", view?.title ?? "A decision your agent asked for")];
  if (outcome && !outcome.ok) nodes.push(h(doc, "p", "notice bad", outcome.message));
  if (!view) return nodes;
  nodes.push(h(doc, "pre", "decision-words", view.lines.join("\n")));
  if (view.state === "pending") {
    const buttons: El[] = [];
    const answer = (verdict: "approve" | "decline") => {
      for (const b of buttons) b.disabled = true;
      void decide(credential, verdict).then((result) =>
        render(result.ok ? result.view : view, result.ok ? null : result),
      );
    };
    buttons.push(
      button(doc, "approve", view.approve, () => answer("approve")),
      button(doc, "reject", "Decline (sign nothing)", () => answer("decline")),
    );
    nodes.push(
      h(doc, "p", "hint", ...withTimes(doc, `This link works until ${new Date(view.expires_at).toISOString()}.`)),
      h(doc, "div", "actions", ...buttons),
    );
  } else {
    nodes.push(h(doc, "p", `notice ${view.state === "approved" ? "ok" : "bad"}`, stateWords(view)));
  }
  return nodes;
}

function stateWords(view: DecisionViewWire): string {
  switch (view.state) {
    case "approved":
      return "Signed with your owner key and sent. Your agent hears of it now; you can close this tab.";
    case "declined":
      return "Declined: nothing was signed.";
    case "failed":
      return `Not signed: ${view.problem ?? "the signature could not be made"}.`;
    case "signing":
      return "Signing…";
    default:
      return `This decision ended (${view.state}): nothing was signed. Ask your agent again if you still want it.`;
  }
}
