/** The closed error list, its one envelope, and the code -> HTTP status / WebSocket close mapping. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ERROR_CODES,
  ErrorEnvelopeSchema,
  httpStatusOf,
  parseOrThrow,
  schemaError,
  TrestleError,
  wsCloseCodeOf,
  type ErrorCode,
} from "../../../src/protocol/index.js";

const CODES = Object.keys(ERROR_CODES) as ErrorCode[];

describe("error codes", () => {
  it.each(CODES)("maps %s to a 4xx/5xx status and the matching 4xxx close code", (code) => {
    const status = httpStatusOf(code);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(600);
    expect(wsCloseCodeOf(code)).toBe(4000 + status);
  });

  it("maps the codes the policy uses to the statuses clients rely on", () => {
    expect(httpStatusOf("E_SCHEMA")).toBe(400);
    expect(httpStatusOf("E_BAD_SIGNATURE")).toBe(401);
    expect(httpStatusOf("E_NOT_FLOOR")).toBe(409);
    expect(httpStatusOf("E_CLOSED")).toBe(409);
    expect(httpStatusOf("E_TOO_LARGE")).toBe(413);
  });
});

describe("TrestleError", () => {
  it("uses the code's message by default and renders the one wire envelope", () => {
    const error = new TrestleError("E_NOT_FLOOR", undefined, { holder: "bot-tao" });
    expect(error.message).toBe(ERROR_CODES.E_NOT_FLOOR.message);
    const envelope = error.toEnvelope();
    expect(ErrorEnvelopeSchema.parse(envelope)).toEqual({
      error: { code: "E_NOT_FLOOR", message: error.message, details: { holder: "bot-tao" } },
    });
    expect(JSON.stringify(envelope)).not.toMatch(/stack|at .*\.ts/);
  });

  it("leaves details out of the envelope when there are none", () => {
    expect(new TrestleError("E_CLOSED", "closed").toEnvelope()).toEqual({
      error: { code: "E_CLOSED", message: "closed" },
    });
  });

  describe("when an envelope carries an unknown code or field", () => {
    it("refuses it when parsed", () => {
      expect(ErrorEnvelopeSchema.safeParse({ error: { code: "E_WHATEVER", message: "x" } }).success).toBe(false);
      expect(ErrorEnvelopeSchema.safeParse({ error: { code: "E_CLOSED", message: "x", stack: "..." } }).success).toBe(
        false,
      );
    });
  });
});

describe("schema errors", () => {
  const Schema = z.strictObject({ a: z.strictObject({ list: z.array(z.int()) }) });

  it("names the first failing path as E_SCHEMA", () => {
    const result = Schema.safeParse({ a: { list: [1, "x"] } });
    const error = schemaError(result.success ? [] : result.error.issues, "thing");
    expect(error.code).toBe("E_SCHEMA");
    expect(error.message).toMatch(/^thing at a\.list\[1\]: /);
    expect(error.details).toMatchObject({ issues: [{ path: "a.list[1]" }] });
  });

  it("parseOrThrow returns the parsed value or throws E_SCHEMA", () => {
    expect(parseOrThrow(Schema, { a: { list: [1] } })).toEqual({ a: { list: [1] } });
    expect(() => parseOrThrow(Schema, { a: { list: [1] }, b: 1 })).toThrow(TrestleError);
  });
});
