/** The bench's child runner (test/bench/harness/child.ts): a child's status and output, with the bench's event loop free while it runs. */
import { describe, expect, it } from "vitest";
import { runChild } from "../../bench/harness/child.js";

describe("runChild", () => {
  it("returns the child's exit status and its stdout and stderr", async () => {
    const run = await runChild(
      process.execPath,
      ["-e", "process.stdout.write('to out'); process.stderr.write(' to err'); process.exitCode = 3"],
      process.env,
    );
    expect(run.status).toBe(3);
    expect(run.output).toContain("to out");
    expect(run.output).toContain("to err");
    expect(run.ms).toBeGreaterThan(0);
  });

  it("lets the event loop turn before the child exits (so pooled connections see the relay close them)", async () => {
    const order: string[] = [];
    setImmediate(() => order.push("event loop turned"));
    await runChild(process.execPath, ["-e", ""], process.env).then(() => order.push("child exited"));
    expect(order).toEqual(["event loop turned", "child exited"]);
  });

  describe("when the command does not exist", () => {
    it("rejects", async () => {
      await expect(runChild("/nonexistent/trestle-bench-command", [], process.env)).rejects.toThrow(/ENOENT/);
    });
  });
});
