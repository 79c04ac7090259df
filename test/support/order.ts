/**
 * Order instead of time in tests: whether an event comes before a timer that runs much longer
 * than the event should take, so a test fails on a slow path without a threshold near the
 * expected time.
 */

/** Resolves with "event" if `event` settles (either way) before `ms` have passed, else with "timer"; the timer is cleared either way. */
export function beforeTimer(event: Promise<unknown>, ms: number): Promise<"event" | "timer"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timer">((resolve) => (timer = setTimeout(() => resolve("timer"), ms)));
  const settled = event.then(
    () => "event" as const,
    () => "event" as const,
  );
  return Promise.race([settled, timeout]).finally(() => clearTimeout(timer));
}
