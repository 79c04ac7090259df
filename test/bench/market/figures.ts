/**
 * The market bench's cost and fan-out figures (docs/BENCHMARKS.md "A market"): what trading cost
 * the relay per deal, from its own meters (harness/meter.ts) over the trading phase alone (the
 * market's creation, the admissions and the mandates left out), split by where it went; what that
 * means against the free plan's daily quotas; and how the market's entries reached its members'
 * sockets.
 */
import { percentile, round } from "../harness/stats.js";
import { dealsPerDay, largest, per, total, type Cost } from "./costs.js";

/** The per-deal cost figures of a trading phase whose objects cost `costs`, with `deals` deals in the rooms `dealRooms` of all the phase's `rooms`, market `market`, and `workerRequests` Worker requests. */
export function costFigures(
  costs: Map<string, Cost>,
  o: {
    market: string;
    rooms: ReadonlySet<string>;
    dealRooms: ReadonlySet<string>;
    deals: number;
    workerRequests: number;
  },
) {
  const table = (key: string) => (key.startsWith("TABLES:") ? key.slice("TABLES:".length) : null);
  const all = total(costs);
  const dealRoom = total(costs, (key) => o.dealRooms.has(table(key) ?? ""));
  const otherRooms = total(costs, (key) => o.rooms.has(table(key) ?? "") && !o.dealRooms.has(table(key) ?? ""));
  const perDeal = { ...per(all, o.deals), worker_requests: round(o.workerRequests / Math.max(1, o.deals), 1) };
  return {
    per_deal: perDeal,
    per_deal_breakdown: {
      deal_room: per(dealRoom, o.deals),
      rooms_without_deal: per(otherRooms, o.deals),
      market: per(
        total(costs, (key) => table(key) === o.market),
        o.deals,
      ),
      counters: per(
        total(costs, (key) => key.startsWith("COUNTERS:")),
        o.deals,
      ),
      owner_objects: per(
        total(costs, (key) => key.startsWith("OWNERS:")),
        o.deals,
      ),
      other_objects: per(
        total(costs, (key) => !key.startsWith("TABLES:") && !key.startsWith("COUNTERS:") && !key.startsWith("OWNERS:")),
        o.deals,
      ),
    },
    one_deal_room_mean: per(dealRoom, o.dealRooms.size),
    rows_written_per_deal_by_statement: largest(all.written_by, o.deals),
    do_calls_per_deal_by_method: largest(all.calls_by, o.deals, 0.1),
    free_plan: dealsPerDay(perDeal.rows_written, perDeal.requests, perDeal.worker_requests),
  };
}

/** How market entries reached the members' sockets: for each entry a member wrote while trading, how many of the `subscribers` got it, and the time from the first member's socket to the last. */
export function fanoutFigures(
  written: Iterable<number>,
  arrivals: ReadonlyMap<number, readonly number[]>,
  subscribers: number,
) {
  const receivers: number[] = [];
  const spreads: number[] = [];
  for (const seq of written) {
    const got = arrivals.get(seq) ?? [];
    receivers.push(got.length);
    if (got.length > 0) spreads.push(Math.max(...got) - Math.min(...got));
  }
  return {
    subscribers,
    writes: receivers.length,
    receivers_min: receivers.length > 0 ? Math.min(...receivers) : 0,
    first_to_last_socket_p50_ms: round(percentile(spreads, 50)),
    first_to_last_socket_p99_ms: round(percentile(spreads, 99)),
  };
}
