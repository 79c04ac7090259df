/**
 * The table's one Durable Object alarm, shared by every job that needs a wake-up: the task
 * watchdog (docs/SPEC.md §5.6: each due task gets one stalled entry, judged by admit at that
 * entry's time), the settlement of sealed-bid auctions and of sealed listings due at a deadline
 * (§5.11, §5.15, the same way), the retry of a sub-table result delivery (results.ts) and the hand-over of owner
 * notifications not yet taken (notify.ts). After every write the alarm is set to the earliest
 * deadline any job has. Alarms run at least once: a second run finds nothing due and appends nothing.
 */
import type { TableState } from "../../../src/protocol/policy/state.js";
import { dueTasks, stalledDraft, watchdogDeadline } from "../../../src/protocol/policy/watchdog.js";
import { auctionDeadline, dueSettlements } from "../../../src/protocol/policy/auctions.js";
import { dueListingSettlements, sealedDeadline } from "../../../src/protocol/policy/market/sealed-settlement.js";
import type { EntryDraft } from "../../../src/protocol/schemas/entry.js";
import { admitAndAppend, type Writer } from "./writes.js";
import type { WriteOutcome } from "../storage/outcome.js";

/** Keeps the Durable Object alarm at the earliest deadline of its jobs. */
export class Alarm {
  /** The alarm time last set or read; undefined until known (after a wake). */
  private alarmAt: number | null | undefined;

  constructor(private readonly storage: DurableObjectStorage) {}

  /** Sets the alarm to the earliest of `deadlines` (nulls ignored), or clears it when there is none. */
  async schedule(deadlines: readonly (number | null)[]): Promise<void> {
    // `??=` would read the alarm again whenever none is set (null); only a wake leaves it unknown.
    if (this.alarmAt === undefined) this.alarmAt = await this.storage.getAlarm();
    const due = deadlines.filter((d): d is number => d !== null);
    const at = due.length > 0 ? Math.min(...due) : null;
    if (at === this.alarmAt) return;
    if (at === null) await this.storage.deleteAlarm();
    else await this.storage.setAlarm(at);
    this.alarmAt = at;
  }

  /**
   * Makes sure the alarm fires by `at` without awaiting, so admitAndAppend can arm it in the same batch of
   * writes as the rows it must retry: alarm operations follow the rules of other storage writes,
   * and writes with no await between them commit together
   * (https://developers.cloudflare.com/durable-objects/api/alarms/). After a wake the alarm is
   * unknown, so it is set to `at`; the schedule that follows every write moves it to the earliest
   * deadline again.
   */
  armBy(at: number): void {
    if (this.alarmAt !== undefined && this.alarmAt !== null && this.alarmAt <= at) return;
    this.alarmAt = at;
    this.storage.setAlarm(at).catch((error: unknown) => console.error("arming the alarm failed", error));
  }

  /** Called when the alarm fired: the runtime cleared it. */
  fired(): void {
    this.alarmAt = null;
  }
}

/** The watchdog's next deadline for the current state, or null when no task is watched. */
export function watchdogAt(state: TableState | null): number | null {
  return state ? watchdogDeadline(state) : null;
}

/**
 * Appends one stalled entry per task due at the t's time; returns what was appended. Each task
 * is judged again against the state the previous stall left: the stall that fills the ledger
 * leaves the rest not due (never a refusal that would throw after some stalls were committed).
 */
export function runWatchdog(t: Writer): WriteOutcome[] {
  const now = t.now();
  const outcomes: WriteOutcome[] = [];
  for (const task of t.state ? dueTasks(t.state, now) : []) {
    const state = t.state!;
    if (dueTasks(state, now).includes(task)) outcomes.push(admitAndAppend(t, stalledDraft(state, task)));
  }
  return outcomes;
}

/** When the next auction or sealed listing settles on its own (a deadline passed without the entry that decides it), or null. */
export function settlementAt(state: TableState | null): number | null {
  const due = state ? [auctionDeadline(state), sealedDeadline(state)].filter((d): d is number => d !== null) : [];
  return due.length > 0 ? Math.min(...due) : null;
}

/** The settlements the alarm submits at `now`: the auctions' due by then, then the sealed listings'. */
function dueAt(state: TableState, now: number): EntryDraft[] {
  return [...dueSettlements(state, now), ...dueListingSettlements(state, now)];
}

/**
 * Appends one settlement per auction and sealed listing due at the t's time (a sale's match comes
 * in the same batch); returns what was appended. Each is judged against the state the previous one
 * left: a settled auction or listing is never due again.
 */
export function runSettlements(t: Writer): WriteOutcome[] {
  const now = t.now();
  const outcomes: WriteOutcome[] = [];
  for (let next = t.state ? dueAt(t.state, now)[0] : undefined; next; next = dueAt(t.state!, now)[0]) {
    outcomes.push(admitAndAppend(t, next));
  }
  return outcomes;
}
