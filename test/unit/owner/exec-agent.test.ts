/**
 * A command as a seat's agent (src/owner/exec-agent.ts, docs/AGENTS.md "When a turn fails"): a run
 * that exits non-zero is refused with E_AGENT, and the refusal carries the end of what the command
 * printed on stdout and stderr, cleaned to one line, bounded, and quoted as the command's own words.
 */
import { describe, expect, it } from "vitest";
import { agentTurn } from "../../../src/owner/agent-turn.js";
import { execAgent } from "../../../src/owner/exec-agent.js";
import { TrestleError } from "../../../src/protocol/index.js";
import { unitProjection } from "../../support/agent-turn.js";
import { refusal } from "../../support/refused.js";

/** The E_AGENT the command `command` fails its turn with. */
function failure(command: string): Promise<TrestleError> {
  const agent = execAgent({
    command,
    json: false,
    timeoutMs: 20_000,
    env: { PATH: process.env.PATH },
    boundary: () => "B".repeat(24),
  });
  return refusal(() => agent.turn(agentTurn("bot-tao", "open", unitProjection("open")), new AbortController().signal));
}

describe("when the command exits non-zero", () => {
  it("says what the command explained on stdout and stderr, quoted as its own words", async () => {
    const error = await failure(
      `cat > /dev/null; echo "cannot answer: the model's quota is spent"; echo "retry after 60 s" >&2; exit 1`,
    );
    expect(error).toMatchObject({ code: "E_AGENT", details: { reason: "exit", status: 1 } });
    expect(error.message).toBe(
      `the command exited with status 1; nothing was written. Its own last words (not trestle's): on stdout "cannot answer: the model's quota is spent"; on stderr "retry after 60 s"`,
    );
  });

  it("keeps only the end of long output, on one line without control or bidi characters", async () => {
    const error = await failure(
      `cat > /dev/null; head -c 5000 /dev/zero | tr '\\0' 'a'; printf 'line one\\n\\033[31mred\\033[0m \\342\\200\\256evil\\r\\nlast words'; exit 2`,
    );
    const stdout = /on stdout "(.*)"$/.exec(error.message)![1]!;
    expect(stdout.endsWith("line one [31mred[0m evil last words")).toBe(true);
    expect(stdout.startsWith("…a")).toBe(true);
    expect([...stdout].length).toBeLessThanOrEqual(300);
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f\u202e]/);
    expect(error.message).not.toContain("on stderr");
  });

  it("says nothing of the command's words when it printed none", async () => {
    expect((await failure("cat > /dev/null; exit 3")).message).toBe(
      "the command exited with status 3; nothing was written",
    );
  });
});
