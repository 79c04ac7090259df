/**
 * The trestle client library, portable part: runs wherever fetch, WebCrypto and a WebSocket exist
 * (Node >= 20 with the `ws` package, browsers, workerd). Key files and the pin store need a file
 * system and live in ./node.ts. Depends only on src/protocol.
 */
export * from "./backoff.js";
export * from "./custody.js";
export * from "./follow.js";
export * from "./follow-custody.js";
export * from "./heads.js";
export * from "./http.js";
export * from "./market.js";
export * from "./owner.js";
export * from "./owner-ask.js";
export * from "./random.js";
export * from "./refusal.js";
export * from "./replica-feed.js";
export * from "./revoke.js";
export * from "./seat.js";
export * from "./socket.js";
export * from "./table-client.js";
export * from "./task-log.js";
export * from "./verify.js";
export * from "./websocket.js";
/** The one error class every refusal is, and its closed list of codes (docs/SPEC.md §9), so `catch` can tell them apart. */
export { ERROR_CODES, ErrorCodeSchema, TrestleError, type ErrorCode, type ErrorEnvelope } from "../protocol/errors.js";
