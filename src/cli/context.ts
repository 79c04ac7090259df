/**
 * What every command runs with: the printer, the home directory, the relay URL, and helpers that
 * pin the relay (trust on first use), open a table with its stored head, and load owner and seat
 * keys from their default places. Streams, environment and clock are injected, so commands are
 * testable; main.ts builds the real one.
 */
import {
  HttpClient,
  loadOrCreateKeyFile,
  openTable,
  ownerKeyPath,
  readKeyFile,
  seatKeyPath,
  trestleHome,
  type LoadedKey,
  type Reader,
  type TableClient,
} from "../client/node.js";
import type { Clock } from "../client/index.js";
import { waitText } from "../protocol/index.js";
import { optional, required, type Parsed } from "./args.js";
import { UsageError } from "./exit.js";
import { Output } from "./output.js";
import { colorAllowed, type TextSink } from "../text/styles.js";

/** Process-level inputs. */
export interface Io {
  stdout: TextSink;
  stderr: TextSink;
  env: NodeJS.ProcessEnv;
  stdin(): Promise<string>;
  clock: Clock;
}

/** The default relay for a local `npm start`. */
export const DEFAULT_RELAY = "http://127.0.0.1:8787";

/** A command's environment. */
export class Context {
  readonly out: Output;
  readonly home: string;
  readonly relayUrl: string;
  private httpClient: HttpClient | undefined;

  constructor(
    readonly io: Io,
    readonly args: Parsed,
  ) {
    const json = args.values.json === true;
    this.out = new Output(json, colorAllowed(io.env, args.values["no-color"] === true), io.stdout, io.stderr);
    this.home = trestleHome(optional(args, "home"), io.env);
    this.relayUrl = optional(args, "relay", "TRESTLE_RELAY", io.env) ?? DEFAULT_RELAY;
  }

  /** The HTTP client for the relay; it says on stderr when it waits out the relay's rate limit. */
  http(): HttpClient {
    const onWait = (ms: number, what: string) =>
      this.out.notice(
        `the relay is rate limiting ${what}; waiting ${waitText(ms)}, then sending it again (a signed write is never applied twice)`,
      );
    this.httpClient ??= new HttpClient({ url: this.relayUrl, clock: this.io.clock, rateLimit: { onWait } });
    return this.httpClient;
  }

  /** A verified client for `table`: the relay pinned (now, on first use), with the newest head this home holds. */
  table(table: string): Promise<TableClient> {
    return openTable({
      relay: this.http(),
      table,
      home: this.home,
      clock: this.io.clock,
      onFirstUse: this.firstUse,
    });
  }

  /** The note printed when a relay is pinned on first use. */
  readonly firstUse = (url: string, key: string): void =>
    this.out.notice(`pinned relay ${url} to key ${key} (first use)`);

  /** The table id from --table / TRESTLE_TABLE. */
  tableId(): string {
    return required(this.args, "table", "TRESTLE_TABLE", this.io.env);
  }

  /** The seat from --seat / TRESTLE_SEAT and its key (--key or the default file). */
  async seat(): Promise<{ seat: string; key: LoadedKey }> {
    const seat = required(this.args, "seat", "TRESTLE_SEAT", this.io.env);
    return { seat, key: await readKeyFile(optional(this.args, "key") ?? seatKeyPath(this.home, seat), "seat") };
  }

  /** The key of seat `seat` a join delegates to: --key or the default file, created (and said so on stderr) when missing. */
  async newSeatKey(seat: string): Promise<LoadedKey> {
    const path = optional(this.args, "key") ?? seatKeyPath(this.home, seat);
    const { key, created } = await loadOrCreateKeyFile(path, "seat", seat);
    if (created) this.out.notice(`created seat key ${path}`);
    return key;
  }

  /** The owner from --owner / TRESTLE_OWNER (else `fallback`, when the command names one) and their key (--owner-key or the default file). */
  async owner(fallback?: string): Promise<{ owner: string; key: LoadedKey }> {
    const owner =
      optional(this.args, "owner", "TRESTLE_OWNER", this.io.env) ??
      fallback ??
      required(this.args, "owner", "TRESTLE_OWNER", this.io.env);
    return {
      owner,
      key: await readKeyFile(optional(this.args, "owner-key") ?? ownerKeyPath(this.home, owner), "owner"),
    };
  }

  /** Who reads: the owner if --owner is given, else the seat. */
  async reader(): Promise<Reader> {
    if (optional(this.args, "owner", "TRESTLE_OWNER", this.io.env) !== undefined) {
      const { owner, key } = await this.owner();
      return { signer: key.signer, as: { owner } };
    }
    if (optional(this.args, "seat", "TRESTLE_SEAT", this.io.env) === undefined)
      throw new UsageError("read as an owner (--owner) or a seat (--seat)");
    const { seat, key } = await this.seat();
    return { signer: key.signer, as: { seat } };
  }
}
