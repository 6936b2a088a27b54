import { describe, expect, it } from "vitest";
import { cn } from "./cn";

describe("cn", () => {
  it("joins conditional classes and lets a later class override a conflicting one", () => {
    expect(cn("px-2 py-1", false && "hidden", { "text-sm": true }, "p-4")).toBe("text-sm p-4");
    expect(cn("bg-primary hover:bg-primary/90", "bg-destructive")).toBe("hover:bg-primary/90 bg-destructive");
  });
});
