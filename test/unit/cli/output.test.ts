/** The CLI's printer and exit codes: colour only on a terminal without NO_COLOR, JSON for scripts, errors with hints and no stack. */
import { describe, expect, it } from "vitest";
import { EXIT, exitCodeOf, UsageError } from "../../../src/cli/exit.js";
import { Output } from "../../../src/cli/output.js";
import { wantsColor, type TextSink } from "../../../src/text/styles.js";
import { TrestleError } from "../../../src/protocol/index.js";

function sink(isTTY: boolean): TextSink & { text: string } {
  return {
    isTTY,
    text: "",
    write(t: string) {
      this.text += t;
    },
  };
}

describe("wantsColor", () => {
  it("colours only a terminal, and never with NO_COLOR or --no-color", () => {
    expect(wantsColor(sink(true), {}, false)).toBe(true);
    expect(wantsColor(sink(false), {}, false)).toBe(false);
    expect(wantsColor(sink(true), { NO_COLOR: "1" }, false)).toBe(false);
    expect(wantsColor(sink(true), {}, true)).toBe(false);
  });
});

describe("Output", () => {
  it("prints human lines, coloured only when asked", () => {
    const plain = sink(false);
    new Output(false, false, plain, sink(false)).result(["a", "b"], { x: 1 });
    expect(plain.text).toBe("a\nb\n");
    const coloured = new Output(false, true, sink(true), sink(true));
    expect(coloured.c.red("x")).toBe("\u001b[31mx\u001b[39m");
  });

  it("prints one JSON document under --json and keeps notices off stdout", () => {
    const out = sink(false);
    const err = sink(false);
    const o = new Output(true, false, out, err);
    o.notice("pinned");
    o.result("human", { seq: 3 });
    expect(out.text).toBe('{"seq":3}\n');
    expect(err.text).toBe("");
  });

  it("reports a relay error with its code and hint, and no stack", () => {
    const err = sink(false);
    new Output(false, false, sink(false), err).error(
      new TrestleError("E_NOT_FLOOR", "bot-tao holds the floor", { holder: "bot-tao" }),
    );
    expect(err.text).toBe(
      "error E_NOT_FLOOR: bot-tao holds the floor\nhint: wait for your turn (trestle watch shows the floor), or ask for it: trestle raise-hand\n",
    );
  });

  describe("when the relay's message carries escape sequences or line breaks", () => {
    it("prints it as one safe line, so it cannot forge output or drive the terminal", () => {
      const err = sink(false);
      new Output(false, false, sink(false), err).error(
        new TrestleError("E_NOT_FLOOR", "held\n\u001b[2Kerror E_NONE: all fine\u001b]0;x\u0007"),
      );
      expect(err.text.split("\n")[0]).toBe("error E_NOT_FLOOR: held [2Kerror E_NONE: all fine]0;x");
      expect(err.text).not.toMatch(/\u001b|\u0007/);
    });
  });

  it("reports errors as the envelope plus hint under --json", () => {
    const out = sink(false);
    new Output(true, false, out, sink(false)).error(new TrestleError("E_CLOSED", "closed"));
    expect(JSON.parse(out.text)).toEqual({ error: { code: "E_CLOSED", message: "closed", hint: expect.any(String) } });
  });

  it("points a usage mistake at the command's own help", () => {
    const err = sink(false);
    new Output(false, false, sink(false), err).error(
      new UsageError("several owners are yours (ops, tao); pass --owner"),
      "create",
    );
    expect(err.text).toBe(
      "error E_USAGE: several owners are yours (ops, tao); pass --owner\nhint: run trestle help create\n",
    );
  });

  it("reports an unexpected failure as a bug without its stack", () => {
    const err = sink(false);
    new Output(false, false, sink(false), err).error(new Error("boom"));
    expect(err.text).toBe("error E_BUG: unexpected failure (a bug in trestle): boom\n");
  });
});

describe("exitCodeOf", () => {
  it.each([
    [new UsageError("x"), EXIT.USAGE],
    [new TrestleError("E_NOT_FLOOR"), EXIT.REFUSED],
    [new TrestleError("E_SCHEMA"), EXIT.REFUSED],
    [new TrestleError("E_FORK"), EXIT.REFUTED],
    [new TrestleError("E_BAD_RESPONSE"), EXIT.REFUTED],
    [new TrestleError("E_NETWORK"), EXIT.NETWORK],
    [new TrestleError("E_RELAY_KEY"), EXIT.TRUST],
    [new TrestleError("E_KEY_FILE"), EXIT.TRUST],
    [new Error("bug"), EXIT.INTERNAL],
  ])("maps %s to %i", (error, code) => {
    expect(exitCodeOf(error)).toBe(code);
  });
});

describe("Output on two streams", () => {
  describe("when stdout is a terminal and stderr is not", () => {
    it("colours stdout only: errors and notes on stderr carry no escape sequence", () => {
      const out = sink(true);
      const err = sink(false);
      const o = new Output(false, true, out, err);
      o.error(new TrestleError("E_CLOSED", "closed"));
      o.notice("pinned");
      expect(err.text).not.toContain("\u001b");
      expect(o.c.red("x")).toBe("\u001b[31mx\u001b[39m");
    });
  });
});
