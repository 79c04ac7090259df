/**
 * The table's alarm: the task watchdog (docs/SPEC.md §5.6). After every write the alarm is set to
 * the earliest time a task may stall; when it fires, each due task gets one stalled entry, judged
 * by admit at that entry's time. Alarms run at least once: a second run finds nothing due and
 * appends nothing.
 */
import type { TableState } from "../../src/protocol/policy/state.js";
import { dueTasks, stalledDraft, watchdogDeadline } from "../../src/protocol/policy/watchdog.js";
import { commit, type TableHost, type WriteOutcome } from "./writes.js";

/** Keeps the Durable Object alarm at the watchdog's next deadline. */
export class Watchdog {
  /** The alarm time last set or read; undefined until known (after a wake). */
  private alarmAt: number | null | undefined;

  constructor(private readonly storage: DurableObjectStorage) {}

  /** Sets the alarm to the next deadline of the current state, or clears it when no task is watched. */
  async schedule(current: () => TableState | null): Promise<void> {
    this.alarmAt ??= await this.storage.getAlarm();
    const state = current();
    const at = state ? watchdogDeadline(state) : null;
    if (at === this.alarmAt) return;
    if (at === null) await this.storage.deleteAlarm();
    else await this.storage.setAlarm(at);
    this.alarmAt = at;
  }

  /** Called when the alarm fired: the runtime cleared it. */
  fired(): void {
    this.alarmAt = null;
  }
}

/** Appends one stalled entry per task due at the host's time; returns what was appended. */
export function runWatchdog(host: TableHost): WriteOutcome[] {
  const state = host.state;
  if (!state) return [];
  return dueTasks(state, host.now()).map((task) => commit(host, stalledDraft(state, task)));
}
