/**
 * A loopback fake of the Telegram, LINE and Discord APIs for the workers tests (Node side, started
 * by test/support/fake-chat-global.ts). It records every request and answers 200 unless a script
 * says otherwise; scripts match a substring of "path body" so concurrent test files stay apart by
 * using their own chat ids. Like the real APIs, LINE answers a repeated X-Line-Retry-Key with 409
 * and Discord a repeated enforced nonce with the first message, and neither delivers twice; and
 * each refuses a message text longer than it takes, counted as it counts (test/support/chat-limits.ts),
 * with its own error: Telegram 400 "Bad Request: message is too long" (or "message text is
 * empty"), LINE 400 "Length must be between 0 and 5000" for that text, Discord 400 50035
 * "Must be 2000 or fewer in length.".
 *
 * A script may hang instead of answering, as a platform whose answer never reaches the relay:
 * `hang: "after-delivery"` takes the message as delivered first (LINE keeps its retry key, Discord
 * its nonce), `hang: "before-delivery"` never processes it. A hung request stays open until the
 * client goes away (the relay's object is killed) or the fake stops.
 *
 * Control (JSON): POST /__control/script { match, status, body?, headers?, times?, hang? },
 * GET /__control/requests?match=..., which returns what was recorded, and
 * GET /__control/wait?match=...&count=n, which answers once n matching requests (default 1) have arrived.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { textChars } from "./chat-limits.js";

/** One recorded request. */
export interface RecordedRequest {
  platform: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** False for a request the fake treated as a duplicate of an earlier delivery. */
  delivered: boolean;
}

/** One scripted answer. */
export interface Script {
  match: string;
  /** The status to answer with (default 200). */
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  times?: number;
  /** Never answer: the platform took the message first ("after-delivery") or never processed it ("before-delivery"). */
  hang?: "after-delivery" | "before-delivery";
}

/** A running fake and its base URL. */
export interface FakeChatApi {
  url: string;
  server: Server;
}

const KEPT_HEADERS = ["authorization", "content-type", "x-line-retry-key"];

/** Starts the fake on 127.0.0.1 at a free port. */
export async function startFakeChatApi(): Promise<FakeChatApi> {
  const recorded: RecordedRequest[] = [];
  const scripts: Script[] = [];
  const lineKeys = new Set<string>();
  const discordNonces = new Set<string>();
  const waiting: { match: string; count: number; resolve: () => void }[] = [];
  const matches = (r: RecordedRequest, match: string) => `${r.path} ${JSON.stringify(r.body)}`.includes(match);
  const arrived = (match: string, count: number) => recorded.filter((r) => matches(r, match)).length >= count;

  const server = createServer(async (req, res) => {
    const text = await readBody(req);
    const url = new URL(req.url ?? "/", "http://fake");
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === "/__control/script") {
      scripts.push(JSON.parse(text) as Script);
      return send(200, { ok: true });
    }
    if (url.pathname === "/__control/requests") {
      const match = url.searchParams.get("match") ?? "";
      return send(
        200,
        recorded.filter((r) => matches(r, match)),
      );
    }
    if (url.pathname === "/__control/wait") {
      const match = url.searchParams.get("match") ?? "";
      const count = Number(url.searchParams.get("count") ?? 1);
      if (arrived(match, count)) return send(200, { ok: true });
      waiting.push({ match, count, resolve: () => send(200, { ok: true }) });
      return;
    }
    const platform = url.pathname.split("/")[1] ?? "";
    const body = parse(text);
    const headers = Object.fromEntries(
      KEPT_HEADERS.flatMap((h) => (req.headers[h] ? [[h, String(req.headers[h])]] : [])),
    );
    const entry: RecordedRequest = {
      platform,
      method: req.method ?? "GET",
      path: url.pathname,
      headers,
      body,
      delivered: true,
    };
    recorded.push(entry);
    for (const w of waiting.filter((w) => arrived(w.match, w.count))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
    const haystack = `${url.pathname} ${text}`;
    const script = scripts.find((s) => haystack.includes(s.match) && (s.times ?? 1) > 0);
    if (script) script.times = (script.times ?? 1) - 1;
    if (script?.hang === "before-delivery") {
      entry.delivered = false;
      return;
    }
    if (script && !script.hang) {
      entry.delivered = false;
      return send(script.status ?? 200, script.body ?? {}, script.headers);
    }
    const refused = tooLong(platform, url.pathname, body);
    if (refused) {
      entry.delivered = false;
      return send(400, refused);
    }
    if (platform === "line" && url.pathname.endsWith("/push")) {
      const key = headers["x-line-retry-key"] ?? "";
      if (lineKeys.has(key)) {
        entry.delivered = false;
        return send(409, { message: "The retry key is already accepted" }, { "x-line-accepted-request-id": key });
      }
      lineKeys.add(key);
    }
    if (platform === "discord" && typeof body === "object" && body !== null && "nonce" in body) {
      const nonce = String((body as { nonce: unknown }).nonce);
      if (discordNonces.has(nonce)) entry.delivered = false;
      discordNonces.add(nonce);
    }
    if (script?.hang === "after-delivery") return;
    if (platform === "telegram") return send(200, { ok: true, result: { message_id: recorded.length } });
    if (platform === "discord") return send(200, { id: String(recorded.length) });
    return send(200, {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

/**
 * The platform's refusal of a message whose text it would not take (too long, or Telegram's empty
 * text), as each answers it; null when the text is within its limit or the request sends none.
 */
function tooLong(platform: string, path: string, body: unknown): Record<string, unknown> | null {
  if (typeof body !== "object" || body === null) return null;
  const fields = body as Record<string, unknown>;
  if (platform === "telegram" && path.endsWith("/sendMessage")) {
    const chars = textChars("telegram", String(fields.text ?? ""), fields.parse_mode === "HTML");
    if (chars === 0) return { ok: false, error_code: 400, description: "Bad Request: message text is empty" };
    return chars > 4096 ? { ok: false, error_code: 400, description: "Bad Request: message is too long" } : null;
  }
  if (platform === "line" && (path.endsWith("/push") || path.endsWith("/reply"))) {
    const messages = Array.isArray(fields.messages) ? (fields.messages as Record<string, unknown>[]) : [];
    const details = messages.flatMap((m, i) =>
      m.type === "text" && textChars("line", String(m.text)) > 5000
        ? [{ message: "Length must be between 0 and 5000", property: `messages[${i}].text` }]
        : [],
    );
    return details.length > 0 ? { message: `The request body has ${details.length} error(s)`, details } : null;
  }
  if (
    platform === "discord" &&
    path.endsWith("/messages") &&
    textChars("discord", String(fields.content ?? "")) > 2000
  ) {
    return {
      message: "Invalid Form Body",
      code: 50035,
      errors: { content: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 2000 or fewer in length." }] } },
    };
  }
  return null;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
