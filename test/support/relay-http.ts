/**
 * A small test driver for the relay over HTTP (any fetch: SELF.fetch in workerd, or a real
 * server): signs with the fixture keys and returns parsed bodies with their status; headUnmoved
 * checks that an attempt left a table's ledger head where it was.
 */
import { expect } from "vitest";
import {
  signCreate,
  signHttpAuth,
  signJoin,
  signSubmission,
  signSubtable,
  type CapabilityCard,
  type DistributiveOmit,
  type HeadRef,
  type Principal,
  type Signer,
  type SubmissionInput,
  type TableConfig,
} from "../../src/protocol/index.js";
import { nonceOf } from "./table-fixture.js";

/** A fetch-like function. */
export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** A response's status and JSON body. */
export interface Reply<T = any> {
  status: number;
  body: T;
}

/** Drives one relay at `base` through `fetch`. */
export class RelayHttp {
  constructor(
    private readonly fetch: Fetch,
    private readonly base = "https://relay.test",
  ) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] = "application/json";
    }
    const res = await this.fetch(this.base + path, init);
    const text = new TextDecoder().decode(await res.arrayBuffer());
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Export bodies are JSONL; keep the text.
    }
    return { status: res.status, body: parsed };
  }

  async create(owner: Signer, ownerName: string, config: TableConfig): Promise<Reply> {
    return this.request("POST", "/tables", await signCreate(owner, config, ownerName));
  }

  async join(
    table: string,
    owner: Signer,
    ownerName: string,
    seat: string,
    seatKey: Signer,
    opts: { human?: boolean; card?: CapabilityCard; nonce?: string; expires?: number; configSha256?: string } = {},
  ): Promise<Reply> {
    const request = await signJoin(
      owner,
      {
        table,
        seat,
        owner: ownerName,
        seat_key: seatKey.publicKeyText,
        human: opts.human ?? false,
        nonce: opts.nonce ?? nonceOf(`join:${table}:${seat}:${Math.random()}`),
        expires: opts.expires ?? Date.now() + 60_000,
        ...(opts.configSha256 === undefined ? {} : { config_sha256: opts.configSha256 }),
      },
      opts.card ?? { summary: `${seat} at the table` },
    );
    return this.request("POST", `/tables/${table}/join`, request);
  }

  async say(
    table: string,
    seatKey: Signer,
    input: DistributiveOmit<SubmissionInput, "table" | "nonce"> & { nonce?: string },
    knownHead?: HeadRef,
  ): Promise<Reply> {
    const request = await signSubmission(
      seatKey,
      { table, nonce: input.nonce ?? nonceOf(`${table}:${input.seat}:${Math.random()}`), ...input } as SubmissionInput,
      knownHead,
    );
    return this.request("POST", `/tables/${table}/entries`, request);
  }

  /** Opens `config` (naming `parent`) as a sub-table, signed by parent seat `seat` with `seatKey`. */
  async openSubtable(parent: string, seatKey: Signer, seat: string, config: TableConfig): Promise<Reply> {
    return this.request("POST", `/tables/${parent}/subtables`, await signSubtable(seatKey, config, seat));
  }

  /** A signed GET as `as` (a seat or an owner). */
  async read(table: string, path: string, signer: Signer, as: Principal): Promise<Reply> {
    const authorization = await signHttpAuth(signer, { table, as, method: "GET", path, now: Date.now() });
    return this.request("GET", path, undefined, { authorization });
  }
}

/** Reads table `id`'s signed head as the relay answers it now: what a refusal must leave as it was (`refused`'s `unmoved`). */
export function tableHead(relay: RelayHttp, id: string): () => Promise<unknown> {
  return async () => (await relay.request("GET", `/tables/${id}/head`)).body;
}

/** Runs `attempt` and returns its reply (or any result), failing the test if table `id`'s signed head moved meanwhile. */
export async function headUnmoved<T = Reply>(relay: RelayHttp, id: string, attempt: () => Promise<T>): Promise<T> {
  const head = tableHead(relay, id);
  const before = await head();
  const reply = await attempt();
  expect(await head()).toEqual(before);
  return reply;
}
