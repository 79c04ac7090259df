/**
 * The principal window this MCP server opens at one decision (docs/MCP.md "Approvals open the
 * principal window", decision 0480): the same local server and page as `trestle view`
 * (src/view/server.ts), on 127.0.0.1 at a free port, started the first time an agent asks the owner
 * for something and kept until the process exits. It serves only the decisions of this process
 * (src/view/decisions.ts), each at its own link; the owner key, which this process holds, signs
 * there on the owner's Approve. One per process, shared by every connection.
 */
import { assetDir, loadAssets } from "../view/assets.js";
import { Decisions, type OpenedDecision } from "../view/decisions.js";
import { serveWindow, type WindowServer } from "../view/server.js";

/** How long the owner has to answer a decision, as long as an approval question waited before (10 minutes). */
export const DECISION_TTL_MS = 10 * 60_000;
/** The most decisions waiting at once. */
const MAX_WAITING = 32;

/** The owner's decisions of this process (each signing into an `R`, a tool's reply) and the window that shows them. */
export class OwnerWindow<R> {
  readonly decisions = new Decisions<R>({ ttlMs: DECISION_TTL_MS, max: MAX_WAITING, now: () => Date.now() });
  private server: Promise<WindowServer> | null = null;

  constructor(private readonly log: (text: string) => void) {}

  /** The link that opens the window at `decision` (starting the window the first time). */
  async link(decision: OpenedDecision): Promise<string> {
    this.server ??= serveWindow({ assets: loadAssets(assetDir()), decisions: this.decisions }).then((server) => {
      this.log(
        `trestle mcp: the principal window for your decisions listens at http://127.0.0.1:${server.port}/ (each decision has its own link)`,
      );
      return server;
    });
    this.server.catch(() => (this.server = null));
    return `http://127.0.0.1:${(await this.server).port}/#decision=${decision.credential}`;
  }

  /** Ends every decision (unsigned) and stops the window. */
  async close(): Promise<void> {
    this.decisions.close();
    const server = await this.server?.catch(() => null);
    await server?.close();
  }
}
