/** How the relay reports a failure it did not expect (durable-objects/result.ts): the runtime's own failures as E_UNAVAILABLE, the rest as E_INTERNAL, never a stack. */
import { describe, expect, it, vi } from "vitest";
import { errorResponse, toTrestleError } from "../../../durable-objects/result.js";
import { TrestleError } from "../../../src/protocol/index.js";

/** An Error carrying the properties the Durable Object runtime sets. */
const runtimeError = (flags: Record<string, boolean>) =>
  Object.assign(new Error("Durable Object reset because its code was updated."), flags);

describe("toTrestleError", () => {
  it("keeps a TrestleError as it is", () => {
    const error = new TrestleError("E_CLOSED");
    expect(toTrestleError(error)).toBe(error);
  });

  it("reports a failure the runtime marks retryable or overloaded as E_UNAVAILABLE", () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(toTrestleError(runtimeError({ retryable: true })).code).toBe("E_UNAVAILABLE");
    expect(toTrestleError(runtimeError({ overloaded: true })).code).toBe("E_UNAVAILABLE");
  });

  describe("when the failure is the relay's own code", () => {
    it("is E_INTERNAL, a thrown remote error included", () => {
      vi.spyOn(console, "error").mockImplementation(() => undefined);
      expect(toTrestleError(new TypeError("x is undefined")).code).toBe("E_INTERNAL");
      expect(toTrestleError(runtimeError({ remote: true, retryable: true })).code).toBe("E_INTERNAL");
    });

    it("is E_INTERNAL for a rate-limit refusal without a wait: no 429 leaves the relay without one", () => {
      vi.spyOn(console, "error").mockImplementation(() => undefined);
      expect(toTrestleError(new TrestleError("E_RATE_LIMITED", "slow down")).code).toBe("E_INTERNAL");
      expect(toTrestleError(new TrestleError("E_RATE_LIMITED", "slow down", { limit: "notes_per_seat" })).code).toBe(
        "E_INTERNAL",
      );
      expect(errorResponse(new TrestleError("E_RATE_LIMITED", "slow down")).status).toBe(500);
    });
  });
});

describe("errorResponse", () => {
  it("adds Retry-After in whole seconds to a rate-limit refusal with a wait, and to nothing else", async () => {
    const limited = errorResponse(
      new TrestleError("E_RATE_LIMITED", "slow down", { limit: "seat_writes_per_min", retry_after_ms: 1500 }),
    );
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(errorResponse(new TrestleError("E_CLOSED")).headers.get("retry-after")).toBeNull();
  });
});
