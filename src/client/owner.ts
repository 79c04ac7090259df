/**
 * The owner's side of chat channels over HTTP: get a bind code, unbind an account, read channel
 * health, pause or resume a table. Each method is one signed request; `trestle bind|unbind|channels`
 * and the MCP `notify_status` tool are thin wrappers over these.
 */
import { toBase64url } from "../protocol/bytes.js";
import type { Signer } from "../protocol/crypto.js";
import { ErrorEnvelopeSchema, TrestleError } from "../protocol/errors.js";
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
import { z } from "zod";
import { signBindCode, signControl, signOwnerAuth, signUnbind } from "./owner-requests.js";

/** A fetch-like function. */
export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** What the client needs from its surroundings; tests pass fixed ones. */
export interface OwnerClientOptions {
  fetch?: Fetch;
  now?: () => number;
  nonce?: () => string;
}

const ControlResponseSchema = z.object({ seq: z.int(), head: z.unknown() });

/** One owner key talking to one relay at `base` (e.g. https://relay.example). */
export class OwnerClient {
  private readonly fetch: Fetch;
  private readonly now: () => number;
  private readonly nonce: () => string;

  constructor(
    private readonly base: string,
    private readonly signer: Signer,
    options: OwnerClientOptions = {},
  ) {
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.now = options.now ?? (() => Date.now());
    this.nonce = options.nonce ?? (() => toBase64url(crypto.getRandomValues(new Uint8Array(16))));
  }

  private get keyPath(): string {
    return `/owners/${this.signer.publicKeyText}`;
  }

  /** A one-time code to send to the bot on `platform` (`trestle bind <platform>`). */
  async bindCode(platform: ChatPlatform, lang: Lang = "en"): Promise<BindCodeResponse> {
    const body = await signBindCode(this.signer, { platform, lang, nonce: this.nonce(), now: this.now() });
    return BindCodeResponseSchema.parse(await this.send("POST", `${this.keyPath}/bind-codes`, body));
  }

  /** Removes one bound account (`trestle unbind <platform> <account>`). */
  async unbind(platform: ChatPlatform, account: string): Promise<UnbindResponse> {
    const body = await signUnbind(this.signer, { platform, account, nonce: this.nonce(), now: this.now() });
    return UnbindResponseSchema.parse(await this.send("POST", `${this.keyPath}/unbind`, body));
  }

  /** Every bound channel with its delivery health (`trestle channels`, MCP `notify_status`). */
  async channels(): Promise<ChannelsResponse> {
    const path = `${this.keyPath}/channels`;
    const authorization = await signOwnerAuth(this.signer, { method: "GET", path, now: this.now() });
    return ChannelsResponseSchema.parse(await this.send("GET", path, undefined, { authorization }));
  }

  /** Pauses or resumes `table`, signed as its owner `owner`. */
  async control(table: string, owner: string, action: ControlAction): Promise<{ seq: number }> {
    const body = await signControl(this.signer, { table, owner, action, nonce: this.nonce() });
    return ControlResponseSchema.parse(await this.send("POST", `/tables/${table}/control`, body));
  }

  private async send(method: "GET" | "POST", path: string, body?: unknown, headers: Record<string, string> = {}): Promise<unknown> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] = "application/json";
    }
    const res = await this.fetch(this.base + path, init);
    const parsed: unknown = await res.json().catch(() => undefined);
    if (res.ok) return parsed;
    const envelope = ErrorEnvelopeSchema.safeParse(parsed);
    if (envelope.success) throw new TrestleError(envelope.data.error.code, envelope.data.error.message, envelope.data.error.details);
    throw new TrestleError("E_UNAVAILABLE", `the relay answered ${res.status} without an error envelope`);
  }
}
