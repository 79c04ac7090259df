/**
 * The owner's side over HTTP: get a bind code, unbind an account, read channel health, pause or
 * resume a table, delete a table. Each method is one signed request; `trestle bind|unbind|channels|delete`
 * and the MCP `notify_status`, `close` and `delete_table` tools are thin wrappers over these, made
 * with `openOwner` (open.ts) so the relay is pinned first.
 */
import type { Signer } from "../protocol/signing/crypto.js";
import type { ChatPlatform, ControlAction } from "../protocol/schemas/control.js";
import {
  BindCodeResponseSchema,
  ChannelsResponseSchema,
  UnbindResponseSchema,
  type BindCodeResponse,
  type ChannelsResponse,
  type Lang,
  type UnbindResponse,
} from "../protocol/schemas/owner.js";
import * as z from "zod";
import { HttpClient, type FetchLike } from "./http.js";
import { signBindCode, signControl, signDelete, signOwnerAuth, signUnbind } from "./owner-requests.js";
import type { DeleteResponse } from "../protocol/schemas/lifetime.js";
import { randomNonce, systemClock } from "./random.js";

/** A fetch-like function (the HttpClient's). */
export type Fetch = FetchLike;

/** What the client needs from its surroundings; tests pass fixed ones. */
export interface OwnerClientOptions {
  fetch?: Fetch;
  /** The HTTP client to send with (openOwner passes the pinned one); else one is made from `base` and `fetch`. */
  http?: HttpClient;
  now?: () => number;
  nonce?: () => string;
}

const ControlResponseSchema = z.object({ seq: z.int(), head: z.unknown() });

/**
 * One owner key talking to one relay at `base` (e.g. https://relay.example). Errors are the
 * HttpClient's: the relay's own code, E_NETWORK when it cannot be reached, E_BAD_RESPONSE when its
 * answer is not the protocol's.
 */
export class OwnerClient {
  private readonly http: HttpClient;
  private readonly now: () => number;
  private readonly nonce: () => string;

  constructor(
    base: string,
    private readonly signer: Signer,
    options: OwnerClientOptions = {},
  ) {
    this.now = options.now ?? systemClock;
    this.http =
      options.http ??
      new HttpClient({ url: base, clock: this.now, ...(options.fetch ? { fetch: options.fetch } : {}) });
    this.nonce = options.nonce ?? randomNonce;
  }

  private get keyPath(): string {
    return `/owners/${this.signer.publicKeyText}`;
  }

  /** A one-time code to send to the bot on `platform` (`trestle bind <platform>`). */
  async bindCode(platform: ChatPlatform, lang: Lang = "en"): Promise<BindCodeResponse> {
    const body = await signBindCode(this.signer, { platform, lang, nonce: this.nonce(), now: this.now() });
    return this.http.ownerRequest(BindCodeResponseSchema, "POST", `${this.keyPath}/bind-codes`, { body });
  }

  /** Removes one bound account (`trestle unbind <platform> <account>`). */
  async unbind(platform: ChatPlatform, account: string): Promise<UnbindResponse> {
    const body = await signUnbind(this.signer, { platform, account, nonce: this.nonce(), now: this.now() });
    return this.http.ownerRequest(UnbindResponseSchema, "POST", `${this.keyPath}/unbind`, { body });
  }

  /** Every bound channel with its delivery health (`trestle channels`, MCP `notify_status`). */
  async channels(): Promise<ChannelsResponse> {
    const path = `${this.keyPath}/channels`;
    const authorization = await signOwnerAuth(this.signer, { method: "GET", path, now: this.now() });
    return this.http.ownerRequest(ChannelsResponseSchema, "GET", path, { authorization });
  }

  /** Pauses or resumes `table`, signed as its owner `owner`. */
  async control(table: string, owner: string, action: ControlAction): Promise<{ seq: number }> {
    const body = await signControl(this.signer, { table, owner, action, nonce: this.nonce() });
    return this.http.ownerRequest(ControlResponseSchema, "POST", `/tables/${encodeURIComponent(table)}/control`, {
      body,
      retry: true,
    });
  }

  /** Deletes `table` for good on this relay, signed as its creator `owner` (its storage is freed; its id is never used again). */
  async deleteTable(table: string, owner: string): Promise<DeleteResponse> {
    return this.http.deleteTable(table, await signDelete(this.signer, { table, owner, now: this.now() }));
  }
}
