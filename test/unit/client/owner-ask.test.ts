/**
 * askOwner (client/owner-ask.ts) over a fake relay: the question is posted before the wait even
 * when the caller gives no `asked` callback (the optional call once skipped the post itself).
 */
import { describe, expect, it } from "vitest";
import { askOwner, HttpClient } from "../../../src/client/index.js";
import { QuestionRequestSchema, type QuestionRequest } from "../../../src/protocol/index.js";
import { cast } from "../../support/table-fixture.js";

/** A relay that keeps the questions posted to it and answers a read of one as expired (so the wait ends at once). */
function fakeRelay() {
  const posted: QuestionRequest[] = [];
  const fetch = async (url: string, init?: RequestInit): Promise<Response> => {
    if (init?.method === "POST") {
      const request = QuestionRequestSchema.parse(JSON.parse(String(init.body)));
      posted.push(request);
      return Response.json(
        { question: request.question.question, deadline: request.question.deadline, queued: 0 },
        { status: 201 },
      );
    }
    const id = new URL(url).pathname.split("/").at(-1)!;
    const kept = posted.find((r) => r.question.question === id);
    if (!kept)
      return Response.json(
        { error: { code: "E_UNKNOWN_QUESTION", message: `no question "${id}" at this table` } },
        { status: 404 },
      );
    return Response.json({ ...kept, state: "expired" });
  };
  return { posted, fetch };
}

describe("askOwner", () => {
  it("posts the question when the caller gives no asked callback", async () => {
    const k = await cast();
    const relay = fakeRelay();
    const http = new HttpClient({ url: "http://relay.test", fetch: relay.fetch });
    const record = await askOwner(
      http,
      "t-ask",
      k.botTao,
      "bot-tao",
      { text: "Saturday?", wait_ms: 1000 },
      { clock: () => 1_000_000, sleep: async () => undefined },
    );
    expect(relay.posted.map((r) => r.question.text)).toEqual(["Saturday?"]);
    expect(record).toMatchObject({ state: "expired", question: { question: relay.posted[0]!.question.question } });
  });
});
