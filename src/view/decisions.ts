/**
 * The owner's decisions an agent asked for, each waiting for one click in the principal window
 * (docs/MCP.md "Approvals open the principal window", decision 0480): an approval, a held message's
 * release, a deal signature, a table's deletion. Each decision has a random id and a random code;
 * the link the agent's client shows the owner carries both (the code in the fragment, never in a
 * request line), and only a request bearing that code reads or answers that one decision. `sign`
 * runs only on the owner's Approve, once; a Decline, an expiry or a cancellation (the owner declined
 * to open the link) signs nothing. Whoever asked waits for the outcome with `settled`.
 */
import { randomBytes } from "../client/index.js";
import { toBase64url, TrestleError } from "../protocol/index.js";
import { sameSecret } from "./access.js";
import type { DecisionViewWire } from "./wire.js";

/** What the owner is shown and what their Approve runs. */
export interface DecisionAsk<R> {
  /** One line: what signing does ("Approve task 12.tao at table t-1"). */
  title: string;
  /** The words the owner decides on, one safe line each (the same words the CLI and the window use). */
  lines: readonly string[];
  /** The Approve button's label ("Approve and sign with my owner key"). */
  approve: string;
  /** Signs and submits; its result is the outcome the asker receives. Runs at most once. */
  sign(): Promise<R>;
}

/** Where a decision stands. */
export type DecisionState = DecisionViewWire["state"];

/** How a decision ended, for whoever asked. */
export type DecisionOutcome<R> =
  | { state: "approved"; result: R }
  | { state: "failed"; error: unknown }
  | { state: "declined" | "expired" | "cancelled" };

/** A decision as the asker holds it: its id and the link's fragment credential. */
export interface OpenedDecision {
  id: string;
  /** `<id>.<code>`: what the link's fragment carries and the page sends back. */
  credential: string;
}

interface Held<R> {
  ask: DecisionAsk<R>;
  code: string;
  state: DecisionState;
  outcome: DecisionOutcome<R> | null;
  expiresAt: number;
  problem: string | null;
  waiters: Set<() => void>;
  timer: NodeJS.Timeout;
}

/** Options: how long a decision waits for the owner, how many may wait at once, the clock. */
export interface DecisionsOptions {
  ttlMs: number;
  max: number;
  now(): number;
}

/** The decisions this process asked its owner for, by id. */
export class Decisions<R> {
  private readonly held = new Map<string, Held<R>>();

  constructor(private readonly options: DecisionsOptions) {}

  /** Opens a decision; E_RATE_LIMITED when `max` already wait (the oldest are not dropped: each was shown to the owner). */
  open(ask: DecisionAsk<R>): OpenedDecision {
    const waiting = [...this.held.values()].filter((d) => d.state === "pending").length;
    if (waiting >= this.options.max) {
      throw new TrestleError(
        "E_RATE_LIMITED",
        `${waiting} decisions already wait for your owner in the principal window; they answer or they expire first`,
        { waiting },
      );
    }
    const id = toBase64url(randomBytes(12));
    const code = toBase64url(randomBytes(32));
    const expiresAt = this.options.now() + this.options.ttlMs;
    const timer = setTimeout(() => this.end(id, { state: "expired" }), this.options.ttlMs);
    timer.unref();
    this.held.set(id, {
      ask,
      code,
      state: "pending",
      outcome: null,
      expiresAt,
      problem: null,
      waiters: new Set(),
      timer,
    });
    return { id, credential: `${id}.${code}` };
  }

  /** The decision a credential names, as the page shows it; E_AUTH for any credential that is not one of ours. */
  view(credential: string): DecisionViewWire {
    return this.viewOf(this.byCredential(credential));
  }

  /** The owner's answer from the page: Approve signs (once), Decline ends it unsigned; either only while pending. */
  async answer(credential: string, verdict: "approve" | "decline"): Promise<DecisionViewWire> {
    const decision = this.byCredential(credential);
    if (decision.state !== "pending")
      throw new TrestleError("E_ALREADY_RESOLVED", `this decision is ${decision.state}; nothing more is signed here`, {
        state: decision.state,
      });
    const id = credential.slice(0, credential.indexOf("."));
    if (verdict === "decline") {
      this.end(id, { state: "declined" });
      return this.viewOf(decision);
    }
    decision.state = "signing";
    try {
      this.end(id, { state: "approved", result: await decision.ask.sign() });
    } catch (error) {
      decision.problem =
        error instanceof TrestleError ? `${error.code}: ${error.message}` : "the signature could not be made";
      this.end(id, { state: "failed", error });
    }
    return this.viewOf(decision);
  }

  /** Ends a decision nobody will answer any more (the owner declined to open its link): it can no longer be signed. */
  cancel(id: string): void {
    if (this.held.get(id)?.state === "pending") this.end(id, { state: "cancelled" });
  }

  /** Whether `id` is a decision this process holds (pending or ended, until it is forgotten at its expiry). */
  has(id: string): boolean {
    return this.held.has(id);
  }

  /** Resolves with the outcome once `id` ends, or null when `signal` aborts first; an unknown id is expired. */
  settled(id: string, signal?: AbortSignal): Promise<DecisionOutcome<R> | null> {
    const decision = this.held.get(id);
    if (!decision) return Promise.resolve({ state: "expired" });
    if (decision.outcome) return Promise.resolve(decision.outcome);
    return new Promise((resolve) => {
      const done = () => {
        decision.waiters.delete(done);
        signal?.removeEventListener("abort", done);
        resolve(decision.outcome);
      };
      decision.waiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  /** Forgets every decision: pending ones expire (the process is stopping). */
  close(): void {
    for (const id of [...this.held.keys()]) this.end(id, { state: "expired" });
    this.held.clear();
  }

  private byCredential(credential: string): Held<R> {
    const dot = credential.indexOf(".");
    const decision = dot > 0 ? this.held.get(credential.slice(0, dot)) : undefined;
    if (!decision || !sameSecret(credential.slice(dot + 1), decision.code)) {
      throw new TrestleError("E_AUTH", "this decision's link is wrong or it ended: ask your agent again");
    }
    return decision;
  }

  private viewOf(d: Held<R>): DecisionViewWire {
    return {
      title: d.ask.title,
      lines: [...d.ask.lines],
      approve: d.ask.approve,
      state: d.state,
      problem: d.problem,
      expires_at: d.expiresAt,
    };
  }

  /** Records how `id` ended (once) and wakes its waiters; an ended decision is kept until its expiry so the page can still show it. */
  private end(id: string, outcome: DecisionOutcome<R>): void {
    const decision = this.held.get(id);
    if (!decision) return;
    if (decision.outcome === null) {
      decision.outcome = outcome;
      decision.state = outcome.state;
      for (const wake of [...decision.waiters]) wake();
    }
    if (outcome.state === "expired") {
      clearTimeout(decision.timer);
      this.held.delete(id);
    }
  }
}
