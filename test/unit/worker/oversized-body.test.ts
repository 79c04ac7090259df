/**
 * A body past the relay's request limit, over one raw connection to a real relay (wrangler's
 * proxy in front of workerd, as test/support/local-relay.ts starts it): the relay answers 413
 * E_TOO_LARGE after reading the rest of the body (up to DISCARD_BYTES past the limit), so the
 * connection is clean and the client's next request on it is answered by the relay, not by
 * wrangler's 503 "Your worker restarted mid-request" or a reset.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../../src/protocol/limits/limits.js";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import { chunked, RawConnection } from "../../support/raw-http.js";

let relay: LocalRelay;
const open: RawConnection[] = [];

beforeAll(async () => {
  relay = await sharedRelay();
}, 60_000);
afterAll(() => {
  for (const connection of open) connection.close();
});

/** A table create whose JSON body is 64 KiB past the limit, sent with `framing`. */
function oversizedCreate(framing: "chunked" | "content-length"): string {
  const body = JSON.stringify({ padding: "a".repeat(LIMITS.request_bytes + 64 * 1024) });
  const head = `POST /tables HTTP/1.1\r\nhost: 127.0.0.1:${relay.port}\r\ncontent-type: application/json\r\n`;
  return framing === "chunked"
    ? `${head}transfer-encoding: chunked\r\n\r\n${chunked(body)}`
    : `${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

describe("when a request's body is past the request limit", () => {
  it.each(["chunked", "content-length"] as const)(
    "answers a %s body 413 E_TOO_LARGE, and the next write on the same connection reaches the relay",
    async (framing) => {
      const connection = await RawConnection.open(relay.port);
      open.push(connection);
      await connection.write(oversizedCreate(framing));
      const refused = await connection.response();
      expect(refused?.status).toBe(413);
      expect(JSON.parse(refused!.body)).toEqual({
        error: { code: "E_TOO_LARGE", message: `request bodies are limited to ${LIMITS.request_bytes} bytes` },
      });
      await connection.write(
        `POST /tables HTTP/1.1\r\nhost: 127.0.0.1:${relay.port}\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}`,
      );
      const next = await connection.response();
      expect([next?.status, JSON.parse(next?.body ?? "null")?.error?.code]).toEqual([400, "E_SCHEMA"]);
    },
  );
});
