/**
 * The one refusal matcher (test/support/refused.ts) passes only on a refusal with the code and
 * whatever else the test names, from a thrown TrestleError, an HTTP reply or a CLI run, and fails
 * on an accepted call, another code, a 5xx, a stack trace or anything the refusal moved.
 */
import { describe, expect, it } from "vitest";
import { TrestleError } from "../../../src/protocol/index.js";
import { refusal, refusalCode, refused } from "../../support/refused.js";

const thrower = (code: "E_SCHEMA" | "E_FORBIDDEN", details?: Record<string, unknown>) => (): unknown => {
  throw new TrestleError(code, "no", details);
};
const reply = (status: number, code: string) => ({ status, body: { error: { code, message: "no" } } });
const run = (code: number, stdout: string, stderr = "") => ({
  code,
  stdout,
  stderr,
  body: JSON.parse(stdout) as unknown,
});

/** Whether `check` fails the test (an assertion or an error), rather than passing. */
async function fails(check: () => Promise<unknown>): Promise<boolean> {
  return check().then(
    () => false,
    () => true,
  );
}

describe("refused", () => {
  it("passes on the code a call throws, sync or async, with its details and status, and returns the error", async () => {
    const error = await refused("E_FORBIDDEN", thrower("E_FORBIDDEN", { reason: "owner" }), {
      details: { reason: "owner" },
      status: 403,
    });
    expect(error).toBeInstanceOf(TrestleError);
    await refused("E_SCHEMA", async () => thrower("E_SCHEMA")());
  });

  it("passes on an HTTP reply's envelope (parsed or as JSON text) with a 4xx or the status named, and returns the reply", async () => {
    expect(await refused("E_SCHEMA", async () => reply(400, "E_SCHEMA"))).toEqual(reply(400, "E_SCHEMA"));
    await refused("E_SCHEMA", async () => ({ status: 413, body: JSON.stringify(reply(413, "E_SCHEMA").body) }), {
      status: 413,
    });
  });

  it("passes on a CLI run's --json envelope or its printed error line, each with a hint", async () => {
    await refused("E_SCHEMA", async () => run(3, '{"error":{"code":"E_SCHEMA","message":"no","hint":"h"}}'), {
      exit: 3,
    });
    await refused("E_SCHEMA", async () => ({ code: 3, stdout: "", stderr: "error E_SCHEMA: no\nhint: h\n" }), {
      exit: 3,
    });
  });

  it("reads `unmoved` before and after: a table's ledger and state, or any snapshot", async () => {
    const table = { l: { entries: [1] }, state: { n: 1 } };
    await refused("E_SCHEMA", thrower("E_SCHEMA"), { unmoved: table });
    await refused("E_SCHEMA", thrower("E_SCHEMA"), { unmoved: async () => table.state.n });
  });

  describe("when the call is not the refusal named", () => {
    it("fails on an accepted call, another code, other details or another status", async () => {
      expect(await fails(() => refused("E_SCHEMA", () => 1))).toBe(true);
      expect(await fails(() => refused("E_SCHEMA", async () => [reply(400, "E_SCHEMA")]))).toBe(true);
      expect(await fails(() => refused("E_SCHEMA", thrower("E_FORBIDDEN")))).toBe(true);
      expect(
        await fails(() =>
          refused("E_FORBIDDEN", thrower("E_FORBIDDEN", { reason: "a" }), { details: { reason: "b" } }),
        ),
      ).toBe(true);
      expect(await fails(() => refused("E_SCHEMA", async () => reply(400, "E_SCHEMA"), { status: 413 }))).toBe(true);
    });

    it("fails on a 5xx reply, a CLI run that exits 0, prints a stack trace or gives no hint", async () => {
      expect(await fails(() => refused("E_SCHEMA", async () => reply(500, "E_SCHEMA")))).toBe(true);
      expect(
        await fails(() =>
          refused("E_SCHEMA", async () => run(0, '{"error":{"code":"E_SCHEMA","message":"no","hint":"h"}}')),
        ),
      ).toBe(true);
      const traced = run(
        3,
        '{"error":{"code":"E_SCHEMA","message":"no","hint":"h"}}',
        "Error: no\n    at main (src/cli/main.ts:1:1)\n",
      );
      expect(await fails(() => refused("E_SCHEMA", async () => traced))).toBe(true);
      expect(
        await fails(() => refused("E_SCHEMA", async () => run(3, '{"error":{"code":"E_SCHEMA","message":"no"}}'))),
      ).toBe(true);
    });

    it("fails when the refusal moved the ledger, the state or the snapshot", async () => {
      const table = { l: { entries: [1] as number[] }, state: { n: 1 } };
      const appends = () => {
        table.l.entries.push(2);
        throw new TrestleError("E_SCHEMA");
      };
      expect(await fails(() => refused("E_SCHEMA", appends, { unmoved: table }))).toBe(true);
      const folds = () => {
        table.state.n += 1;
        throw new TrestleError("E_SCHEMA");
      };
      expect(await fails(() => refused("E_SCHEMA", folds, { unmoved: table }))).toBe(true);
      expect(await fails(() => refused("E_SCHEMA", folds, { unmoved: () => table.state.n }))).toBe(true);
    });

    it("rethrows what is not a TrestleError", async () => {
      const bug = new Error("a bug");
      await expect(refused("E_SCHEMA", () => Promise.reject(bug))).rejects.toBe(bug);
    });
  });
});

describe("refusal and refusalCode", () => {
  it("give the refusal at once for a synchronous call and as a promise for an asynchronous one", async () => {
    expect(refusal(thrower("E_SCHEMA")).code).toBe("E_SCHEMA");
    expect((await refusal(async () => thrower("E_FORBIDDEN")())).code).toBe("E_FORBIDDEN");
    expect(refusalCode(thrower("E_SCHEMA"))).toBe("E_SCHEMA");
    expect(refusalCode(() => 1)).toBe("accepted");
    expect(await refusalCode(async () => 1)).toBe("accepted");
  });

  it("fail on an accepted call", async () => {
    expect(() => refusal(() => 1)).toThrow("accepted");
    await expect(refusal(async () => 1)).rejects.toThrow("accepted");
  });
});
