/**
 * `npm run bench -- --market` (docs/BENCHMARKS.md "A market"): a market of `owners` members and
 * `items` items with private values from a fixed seed, traded through a bench relay by scripted
 * agents of two styles, each member on its own trestle home: setup (the market, admissions by key,
 * mandates), then trading (sealed listings and their bids, then the haggles while bidding closes,
 * then the sales), then the checks. Figures: deals, wall time, CPU of the relay and of the agents,
 * rows written and Durable Object requests per deal (the relay's own meters) against the free
 * plan, fan-out of the market to its members' sockets, the guards' refusals, the invariants, and
 * the fairness table.
 */
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { openTable } from "../../../src/client/node.js";
import { marketState, type Transcript } from "../../../src/owner/index.js";
import type { BenchRelay } from "../harness/relay.js";
import { round } from "../harness/stats.js";
import { invariantsHold, judge, limitsOf, readLedger, type ReadLedger } from "./checks.js";
import { delta, per, readMeter, total } from "./costs.js";
import { fairness } from "./fairness.js";
import { costFigures, fanoutFigures } from "./figures.js";
import { haggle, type Haggled, type Tally } from "./haggle.js";
import { inBatches, openMarket, type Market, type Place } from "./members.js";
import { makeWorld, rng, type Sizes, type World } from "./scenario.js";
import { listAndCommit, revealAndSell, type Sold } from "./sealed.js";
import { verifyingPool } from "./verifying.js";
import { threadsBeside } from "../../../src/client/verify-pool.js";

/** The seed every run draws its world from. */
export const SEED = 20261206;
/** The share of what a buyer would pay at most for everything it wants that its allowance allows. */
const ALLOWANCE_SHARE = 0.6;

/** How a market run is sized and driven. */
export interface MarketRunOptions {
  sizes: Sizes;
  /** Haggles at once. */
  width: number;
  /** How long sealed listings take bids after they are listed, ms. */
  biddingMs: number;
  log(line: string): void;
}

/** The full run's sizes, and a quick one's (to check the bench itself). */
export const FULL: Sizes = { owners: 69, items: 500, sealed: 40, bidders: 6 };
export const QUICK: Sizes = { owners: 10, items: 24, sealed: 3, bidders: 3 };

/**
 * Where the members' homes go: a memory file system when there is one (/dev/shm). 69 people keep
 * their head files, journals and mandates on 69 disks at once; on this machine's one disk every
 * head file a member replaces (one per pushed head) would be flushed in turn by one process,
 * which measures the co-location, not trestle (decision 0496).
 */
function homesRoot(): string {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return tmpdir();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const seconds = (ms: number) => round(ms / 1000, 1);

/** Runs the market bench against `relay`; `ok` is false when an invariant failed or an item could not be traded. */
export async function marketRun(
  relay: BenchRelay,
  o: MarketRunOptions,
): Promise<{ figures: Record<string, unknown>; ok: boolean }> {
  const started = performance.now();
  const load: { start: number; end?: number } = { start: round(loadavg()[0]!, 1) };
  const world = makeWorld(SEED, o.sizes);
  const dir = mkdtempSync(join(homesRoot(), "trestle-market-"));
  const arrivals = new Map<number, number[]>();
  let trading = false;
  // Off the calling thread: on this machine's two cores the agents' own work fills the one, the checks the other beside the relay.
  const threads = Math.max(1, threadsBeside());
  const { verifying, pool } = verifyingPool(threads);
  const place: Place = {
    url: relay.url,
    dir,
    verifying,
    onMarketArrival: (_owner, items, at) => {
      if (trading) for (const item of items) arrivals.set(item.seq, [...(arrivals.get(item.seq) ?? []), at]);
    },
  };
  try {
    const id = `m-bench-${Date.now().toString(36)}`;
    const atStart = await readMeter(relay.url);
    const market = await openMarket(place, world, id, ALLOWANCE_SHARE);
    const setupMs = performance.now() - started;
    o.log(
      `market: ${id} open, ${market.members.size} members admitted by key, mandates signed (${seconds(setupMs)} s)`,
    );

    const before = {
      meter: await readMeter(relay.url),
      relayCpu: relay.cpuSeconds(),
      agentsCpu: process.cpuUsage(),
      agentsThread: mainThreadCpuSeconds(),
      worker: await workerRequests(relay.url),
    };
    const tally: Tally = {
      refusals: {},
      lateBids: 0,
      errors: [],
      probes: { tried: 0, refused: 0 },
      marketWrites: new Set(),
      random: rng(SEED + 1),
    };
    trading = true;
    const tradeStart = performance.now();
    const { haggled, sold } = await trade(market, world, o, tally);
    const deals = haggled.filter((h) => h.outcome === "deal").length + sold.filter((s) => s.outcome === "deal").length;
    await recorded(market.members.values().next().value!.marketSeat, deals);
    const tradeMs = performance.now() - tradeStart;
    trading = false;
    const relayCpu = relay.cpuSeconds() - before.relayCpu;
    const agents = process.cpuUsage(before.agentsCpu);
    const agentsThread = mainThreadCpuSeconds();
    const costs = delta(before.meter, await readMeter(relay.url));
    const worker = (await workerRequests(relay.url)) - before.worker;
    o.log(`market: ${deals} deals in ${seconds(tradeMs)} s`);

    const rooms = new Set(
      [...haggled.map((h) => h.room), ...sold.map((s) => s.room)].filter((r): r is string => r !== null),
    );
    const dealRooms = new Set([...haggled, ...sold].filter((x) => x.outcome === "deal").map((x) => x.room!));
    const checksStart = performance.now();
    const relayKey = market.host.client.tracker.relayKey;
    const read: ReadLedger[] = [];
    // Several at once, so the relay serves one export while another is verified.
    const [marketLedger] = await Promise.all([
      readLedger(
        { table: id, client: market.host.client, reader: { signer: market.host.owner, as: { owner: "host" } } },
        relayKey,
        verifying,
      ),
      inBatches([...rooms], 8, async (room) => {
        const seller = market.members.get([...haggled, ...sold].find((x) => x.room === room)!.item.seller)!;
        read.push(
          await readLedger(
            {
              table: room,
              client: await openTable({ relay: relay.url, table: room, home: seller.home }),
              reader: { signer: seller.owner, as: { owner: seller.name } },
            },
            relayKey,
            verifying,
          ),
        );
      }),
    ]);
    const findings = await judge(world, {
      relayKey,
      market: marketLedger,
      rooms: read,
      limits: limitsOf(haggled, sold),
      sold,
      allowanceShare: ALLOWANCE_SHARE,
    });
    const checksMs = performance.now() - checksStart;
    for (const p of [...findings.problems, ...tally.errors]) o.log(`market check: ${p}`);
    for (const m of market.members.values()) m.marketSeat.close();
    load.end = round(loadavg()[0]!, 1);

    const figures = {
      seed: SEED,
      relay: "one workerd (direct)",
      homes_on: dir.startsWith("/dev/shm") ? "tmpfs" : "disk",
      owners: world.owners.length,
      items: world.items.length + world.sealed.length,
      haggled: world.items.length,
      sealed_listings: world.sealed.length,
      deals,
      deals_haggled: haggled.filter((h) => h.outcome === "deal").length,
      deals_sealed: sold.filter((s) => s.outcome === "deal").length,
      no_deal: haggled.filter((h) => h.outcome === "no_deal").length,
      stopped_by_allowance: [...haggled, ...sold].filter((x) => x.outcome === "allowance").length,
      unsold_sealed: sold.filter((s) => s.outcome === "unsold").length,
      items_failed: tally.errors.length,
      rooms: rooms.size,
      market_entries: marketLedger.entries.length,
      mandate_breaches: findings.mandate_breaches,
      allowance_overruns: findings.allowance_overruns,
      secrets_leaked: findings.secrets_leaked,
      exports_verified: `${findings.exports_clean}/${findings.exports}`,
      deals_cosigned: findings.deals_cosigned,
      deals_certified_offline: findings.deals_certified,
      deals_recorded_in_market: findings.deals_recorded,
      guard_refusals: tally.refusals,
      probes: tally.probes,
      late_bids: tally.lateBids,
      wall_s: seconds(performance.now() - started),
      setup_s: seconds(setupMs),
      trading_s: seconds(tradeMs),
      checks_s: seconds(checksMs),
      load_average_1min: load,
      relay_cpu_s: round(relayCpu, 1),
      agents_cpu_s: round((agents.user + agents.system) / 1e6, 1),
      // The agents' own thread (scripts, guards, sockets, policy replay); the rest of agents_cpu_s is the checking threads' and libuv's.
      agents_main_thread_cpu_s:
        agentsThread === null || before.agentsThread === null ? null : round(agentsThread - before.agentsThread, 1),
      verify_threads: threads,
      relay_cpu_ms_per_deal: round((relayCpu * 1000) / Math.max(1, deals), 1),
      ...costFigures(costs, { market: id, rooms, dealRooms, deals, workerRequests: worker }),
      setup_cost: per(total(delta(atStart, before.meter)), 1),
      fanout: fanoutFigures(tally.marketWrites, arrivals, market.members.size),
      fairness: fairness(market.members, haggled, sold),
    };
    return { figures, ok: invariantsHold(findings, deals) && tally.errors.length === 0 };
  } finally {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Trading: sealed listings and their bids first (bidding closes while the haggles run), every haggle `o.width` at a time, then the sales once bidding closed. An item that fails other than by a guard's refusal is in `tally.errors`. */
async function trade(
  market: Market,
  world: World,
  o: MarketRunOptions,
  tally: Tally,
): Promise<{ haggled: Haggled[]; sold: Sold[] }> {
  const tradeStart = performance.now();
  const until = Date.now() + o.biddingMs;
  const listed = await listAndCommit(
    market.members,
    world.sealed,
    { until, revealUntil: until + 900_000, width: o.width },
    tally,
  );
  o.log(
    `market: ${listed.length} sealed listings, ${listed.reduce((n, l) => n + l.bids.filter((b) => b.committed).length, 0)} bids committed, ${tally.lateBids} late (${seconds(performance.now() - tradeStart)} s)`,
  );
  const sales = (async (): Promise<Sold[]> => {
    await sleep(until - Date.now() + 250);
    return revealAndSell(market.members, listed, 6, tally);
  })();
  const haggled: Haggled[] = [];
  let done = 0;
  await inBatches(world.items, o.width, async (item) => {
    try {
      haggled.push(await haggle(market.members, item, tally));
    } catch (error) {
      tally.errors.push(`item ${item.index}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (++done % 50 === 0)
      o.log(`market: ${done} of ${world.items.length} items haggled (${seconds(performance.now() - tradeStart)} s)`);
  });
  return { haggled, sold: await sales };
}

/** CPU-seconds this process's main thread has used (Linux: /proc/self/task/<pid>/stat, at 100 ticks a second), or null where that cannot be read. */
function mainThreadCpuSeconds(): number | null {
  try {
    const fields = readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, "utf8")
      .split(")")
      .pop()!
      .trim()
      .split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** The Worker's requests so far, as the bench relay counts them. */
async function workerRequests(url: string): Promise<number> {
  return ((await (await fetch(`${url}/__bench/worker`)).json()) as { requests: number }).requests;
}

/** Waits until the market (as `seat` reads it) has recorded `deals` deals, up to 30 s: a room asks its market to record as its deal is done. */
async function recorded(
  seat: { transcript(): Promise<Transcript>; after(seq: number): Promise<void> },
  deals: number,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const t = await seat.transcript();
    if (marketState(t).market.deals >= deals) return;
    await Promise.race([seat.after(t.entries.length), sleep(500)]);
  }
}
