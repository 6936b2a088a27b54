import { describe, expect, it } from "vitest";
import { describeError } from "./describe-error";

describe("describeError (docs/architecture.md: Logs)", () => {
  it("answers an Error's message, without its type or stack", () => {
    expect(describeError(new TypeError("fetch failed"))).toBe("fetch failed");
  });

  it("answers the message of an error of a subclass, and an empty message as it is", () => {
    class DatabaseError extends Error {}
    expect(describeError(new DatabaseError('relation "x" does not exist'))).toBe('relation "x" does not exist');
    expect(describeError(new Error(""))).toBe("");
  });

  it("answers anything else thrown as its text", () => {
    expect(describeError("connection reset")).toBe("connection reset");
    expect(describeError(42)).toBe("42");
    expect(describeError(undefined)).toBe("undefined");
    expect(describeError(null)).toBe("null");
    expect(describeError({ toString: () => "an odd object" })).toBe("an odd object");
  });
});
