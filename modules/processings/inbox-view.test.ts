// The inbox's view in its URL: what is written reads back the same, defaults stay out of the URL,
// and a value the inbox cannot show (hand-edited, or an old link) falls back to its default.
import { describe, expect, it } from "vitest";
import { readInboxView, writeInboxView } from "./inbox-view";

const read = (query: string) => readInboxView(new URLSearchParams(query));

describe("the inbox view in the URL", () => {
  it("reads back what it wrote", () => {
    const view = { pageIndex: 3, pageSize: 50, status: "error" as const, q: "50% off & more" };
    expect(read(writeInboxView(view))).toEqual(view);
  });

  it("leaves defaults out: the first page of 15, all statuses, no search is an empty query", () => {
    expect(writeInboxView({ pageIndex: 0, pageSize: 15 })).toBe("");
    expect(read("")).toEqual({ pageIndex: 0, pageSize: 15 });
  });

  it("falls back to the default of each value it cannot show", () => {
    expect(read("pageIndex=-1&pageSize=7&status=failed&q=%20%20")).toEqual({ pageIndex: 0, pageSize: 15 });
    expect(read("pageIndex=1.5&pageSize=abc")).toEqual({ pageIndex: 0, pageSize: 15 });
    expect(read("status=not-processed&q=%20invoice%20")).toEqual({
      pageIndex: 0,
      pageSize: 15,
      status: "not-processed",
      q: "invoice",
    });
  });

  it("cuts a search text longer than the API takes", () => {
    expect(read(`q=${"a".repeat(300)}`).q).toHaveLength(200);
  });
});
