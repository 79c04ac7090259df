/**
 * One MCP connection's state (a stdio process, one `--http` session, or one in-process server in
 * tests): the settings, the active table, a verified TableClient per table (relay pinned on first
 * use, newest head kept in the trestle home), what the model has read of each table (cursor and
 * prefix hash), the live sockets, and the keys, card and owner instructions, each read from its
 * file when first needed. A stateless session (the 2026-07-28 revision, decision 0481) keeps the
 * clients and sockets but no conversation: its active table is always the configured one and it
 * remembers no read, so tools take `table` and `cursor` as arguments. Nothing a tool receives can
 * change a key, the card or the instructions: no tool writes them.
 */
import { readFileSync } from "node:fs";
import {
  HttpClient,
  loadOrCreateKeyFile,
  openOwner,
  openTable,
  readKeyFile,
  type LoadedKey,
  type OwnerClient,
  type Reader,
  type TableClient,
} from "../client/node.js";
import {
  CapabilityCardSchema,
  parseOrThrow,
  TrestleError,
  waitText,
  type CapabilityCard,
  type Signer,
} from "../protocol/index.js";
import type { McpSettings } from "./config.js";
import { ENV, readJsonFile } from "./config.js";
import { LiveTable } from "./live.js";

/** A key this server holds, with the name it acts under. */
export interface Identity {
  name: string;
  signer: Signer;
  path: string;
}

/** What the model has read of one table: the cursor of its last read and the prefix hash it was sent. */
export interface ReadState {
  cursor: number;
  prefix: string | null;
}

/** What a session needs from outside; tests pass their own. */
export interface SessionDeps {
  /** Diagnostics, never the protocol stream (stderr in the stdio server). */
  log(text: string): void;
}

/** Per-table state. */
interface Slot {
  client: Promise<TableClient>;
  live: LiveTable | null;
  read: ReadState;
}

/** How a session is kept: `stateless` remembers no active table and no read (2026-07-28). */
export interface SessionOptions {
  stateless?: boolean;
}

/** The state of one MCP session. */
export class McpSession {
  private current: string | undefined;
  private readonly slots = new Map<string, Slot>();
  private owner: Promise<Identity> | null = null;
  private seat: Promise<Identity> | null = null;
  private httpClient: HttpClient | undefined;

  /** Whether this session keeps no conversation state (no active table switch, no read cursor). */
  readonly stateless: boolean;

  /** The tables this session has read as markets: their listings and matches are listed as resources. */
  readonly markets = new Set<string>();

  constructor(
    readonly settings: McpSettings,
    readonly deps: SessionDeps,
    options: SessionOptions = {},
  ) {
    this.current = settings.table;
    this.stateless = options.stateless ?? false;
  }

  /** The table tools act on when they are not given one: the last one used here, or the configured one (a stateless session: always the configured one). */
  get active(): string | undefined {
    return this.current;
  }

  /** Makes `table` the active one (a stateless session keeps none); returns the words that say so in a tool's status. */
  use(table: string): string {
    if (this.stateless) return `pass table ${table} on each call (this connection keeps no active table)`;
    this.current = table;
    return `${table} is now the active table`;
  }

  /** The table named, else the active one; E_SCHEMA with a hint when neither exists. */
  tableId(given?: string): string {
    const table = given ?? this.active;
    if (table === undefined) {
      throw new TrestleError(
        "E_SCHEMA",
        `no table: pass \`table\`, set ${ENV.table} in the server's environment, or create or join one first`,
      );
    }
    return table;
  }

  /** Every table this session has touched, in first-use order. */
  get tables(): string[] {
    return [...this.slots.keys()];
  }

  /** The verified client for `table` (pinning the relay on first use). */
  client(table: string): Promise<TableClient> {
    return this.slot(table).client;
  }

  /** The live sockets of `table`. */
  async live(table: string): Promise<LiveTable> {
    const slot = this.slot(table);
    slot.live ??= new LiveTable(await slot.client, this.deps.log);
    return slot.live;
  }

  /** What the model has read of `table` (mutable: read and wait advance it); a stateless session's is new on every call, as if nothing were read. */
  readState(table: string): ReadState {
    return this.stateless ? { cursor: 0, prefix: null } : this.slot(table).read;
  }

  /** The owner key (TRESTLE_OWNER_KEY_FILE, or <home>/owners/<TRESTLE_OWNER>.json); E_KEY_FILE if none is configured. */
  ownerKey(): Promise<Identity> {
    this.owner ??= this.load("owner", this.settings.ownerKeyFile, this.settings.owner, ENV.ownerKeyFile, ENV.owner);
    this.owner.catch(() => (this.owner = null));
    return this.owner;
  }

  /** Whether an owner key is configured (it may still fail to load). */
  get hasOwner(): boolean {
    return this.settings.ownerKeyFile !== undefined;
  }

  /** The owner key and an OwnerClient signing with it, for the relay pinned as every table here is (E_RELAY_KEY when its key changed). */
  async ownerClient(): Promise<{ owner: Identity; client: OwnerClient }> {
    const owner = await this.ownerKey();
    const client = await openOwner({
      relay: this.http(),
      signer: owner.signer,
      home: this.settings.home,
      onFirstUse: this.firstUse,
    });
    return { owner, client };
  }

  /** The seat key (TRESTLE_SEAT_KEY_FILE, or <home>/seats/<TRESTLE_SEAT>.json); E_KEY_FILE if none is configured. */
  seatKey(): Promise<Identity> {
    this.seat ??= this.load("seat", this.settings.seatKeyFile, this.settings.seat, ENV.seatKeyFile, ENV.seat);
    this.seat.catch(() => (this.seat = null));
    return this.seat;
  }

  /** The seat key, created (mode 0600) if its file does not exist yet: `trestle_join` seats a new key like `trestle join` does. */
  async seatKeyCreating(): Promise<{ identity: Identity; created: boolean }> {
    const { seatKeyFile: path, seat: name } = this.settings;
    if (path === undefined || name === undefined) return { identity: await this.seatKey(), created: false };
    const { key, created } = await loadOrCreateKeyFile(path, "seat", name);
    const seat = identity(key, name);
    this.seat = Promise.resolve(seat);
    return { identity: seat, created };
  }

  /** A reader as `prefer` when that key is configured, else as the other one. */
  async reader(prefer: "seat" | "owner" = "seat"): Promise<Reader> {
    const asSeat =
      prefer === "seat" ? this.settings.seatKeyFile !== undefined : this.settings.ownerKeyFile === undefined;
    if (asSeat) {
      const seat = await this.seatKey();
      return { signer: seat.signer, as: { seat: seat.name } };
    }
    const owner = await this.ownerKey();
    return { signer: owner.signer, as: { owner: owner.name } };
  }

  /** The seat's capability card from TRESTLE_CARD_FILE (an empty card when none is configured). */
  card(): CapabilityCard {
    const path = this.settings.cardFile;
    if (path === undefined) return {};
    return parseOrThrow(CapabilityCardSchema, readJsonFile(path, "capability card"), `the capability card ${path}`);
  }

  /** The owner's standing instructions for this seat (TRESTLE_INSTRUCTIONS_FILE), or null. */
  instructions(): string | null {
    const path = this.settings.instructionsFile;
    if (path === undefined) return null;
    try {
      return readFileSync(path, "utf8").trim() || null;
    } catch (error) {
      this.deps.log(`cannot read the instructions file ${path}: ${(error as Error).message}`);
      return null;
    }
  }

  /** Closes every socket. */
  close(): void {
    for (const slot of this.slots.values()) slot.live?.close();
  }

  private slot(table: string): Slot {
    let slot = this.slots.get(table);
    if (!slot) {
      const client = openTable({ relay: this.http(), table, home: this.settings.home, onFirstUse: this.firstUse });
      slot = { client, live: null, read: { cursor: 0, prefix: null } };
      this.slots.set(table, slot);
      client.catch(() => this.slots.delete(table));
    }
    return slot;
  }

  private readonly firstUse = (url: string, key: string): void =>
    this.deps.log(`pinned relay ${url} to key ${key} (first use)`);

  /**
   * The one HTTP client of this session. It waits out a rate limit only while a tool call can
   * wait (twice, 20 s at most each: MCP clients often give a call 60 s), logging each wait; a
   * longer one reaches the model as E_RATE_LIMITED with the wait.
   */
  private http(): HttpClient {
    const onWait = (ms: number, what: string) =>
      this.deps.log(`the relay is rate limiting ${what}; waiting ${waitText(ms)} before sending it again`);
    this.httpClient ??= new HttpClient({
      url: this.settings.url,
      rateLimit: { attempts: 2, maxWaitMs: 20_000, onWait },
    });
    return this.httpClient;
  }

  private async load(
    role: "owner" | "seat",
    path: string | undefined,
    name: string | undefined,
    pathVar: string,
    nameVar: string,
  ): Promise<Identity> {
    if (path === undefined)
      throw new TrestleError(
        "E_KEY_FILE",
        `this server holds no ${role} key: set ${pathVar} (or ${nameVar}) in its environment`,
      );
    const key = await readKeyFile(path, role);
    return identity(key, name ?? key.name);
  }
}

function identity(key: LoadedKey, name: string): Identity {
  return { name, signer: key.signer, path: key.path };
}
