/**
 * A CPU profiler for the bench relay's user worker (the Worker and its Durable Objects' isolate),
 * over the Chrome DevTools protocol that wrangler's inspector serves: start, stop, and a summary
 * of where the samples fell by function (self time).
 */
import WebSocket from "ws";

/** One line of the summary: a function, where it is, and its share of the samples. */
export interface HotFunction {
  share_pct: number;
  function: string;
  where: string;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** A V8 CPU profile as the protocol returns it. */
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
}

/** A DevTools session with the first target the inspector at `port` lists. */
export class Profiler {
  private nextId = 0;
  private readonly pending = new Map<number, (result: unknown) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: unknown };
      const settle = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!settle) return;
      this.pending.delete(message.id!);
      settle(message.result ?? message.error);
    });
  }

  /** Connects to the inspector on 127.0.0.1:`port`. */
  static async connect(port: number): Promise<Profiler> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
    if (targets.length === 0) throw new Error(`the inspector on port ${port} lists no target`);
    const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    return new Profiler(socket);
  }

  /** Starts sampling every `intervalUs` microseconds. */
  async start(intervalUs = 100): Promise<void> {
    await this.call("Profiler.enable");
    await this.call("Profiler.setSamplingInterval", { interval: intervalUs });
    await this.call("Profiler.start");
  }

  /** Stops sampling and returns the profile. */
  async stop(): Promise<CpuProfile> {
    return ((await this.call("Profiler.stop")) as { profile: CpuProfile }).profile;
  }

  /** Closes the session. */
  close(): void {
    this.socket.close();
  }

  private call(method: string, params: object = {}): Promise<unknown> {
    this.nextId += 1;
    const id = this.nextId;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }
}

/** The `top` functions with the most samples, by self time, as shares of all samples. */
export function hotFunctions(profile: CpuProfile, top: number): HotFunction[] {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, HotFunction & { samples: number }>();
  for (const id of profile.samples) {
    const frame = nodes.get(id)!.callFrame;
    const where = frame.url ? `${frame.url.split("/").pop()}:${frame.lineNumber + 1}` : "(native)";
    const name = frame.functionName || "(anonymous)";
    const key = `${name}@${where}`;
    const entry = byFunction.get(key) ?? { share_pct: 0, function: name, where, samples: 0 };
    entry.samples += 1;
    byFunction.set(key, entry);
  }
  return [...byFunction.values()]
    .sort((a, b) => b.samples - a.samples)
    .slice(0, top)
    .map(({ samples, ...hot }) => ({ ...hot, share_pct: Math.round((1000 * samples) / profile.samples.length) / 10 }));
}
