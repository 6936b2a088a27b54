// @vitest-environment jsdom
// A tooltip as a user meets it: closed until used, then opened by a keyboard focus or by the pointer
// resting on its trigger for the delay, and not by a press.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from "./tooltip";

beforeAll(() => {
  // jsdom has no ResizeObserver; Radix's positioning observes the tooltip's arrow with one.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});

afterEach(cleanup);

function renderTooltip() {
  render(
    <TooltipProvider delayDuration={20}>
      <Tooltip>
        <TooltipTrigger asChild>
          <button type="button">Copy</button>
        </TooltipTrigger>
        <TooltipContent>Copy the address</TooltipContent>
      </Tooltip>
    </TooltipProvider>,
  );
  return screen.getByRole("button", { name: "Copy" });
}

const wait = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

describe("a tooltip", () => {
  it("renders its trigger closed and no content before it is used", () => {
    const trigger = renderTooltip();
    expect(trigger.dataset.state).toBe("closed");
    expect(screen.queryByRole("tooltip")).toBeNull();
  });

  it("opens on keyboard focus, and the focus stays on the (now Radix's) trigger", async () => {
    const trigger = renderTooltip();
    act(() => trigger.focus());
    expect(await screen.findByRole("tooltip")).toHaveProperty("textContent", "Copy the address");
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Copy" }));
    expect(screen.getByRole("button", { name: "Copy" }).dataset.state).toMatch(/open/);
  });

  it("opens when the pointer rests on the trigger for the delay, and closes on Escape", async () => {
    const trigger = renderTooltip();
    fireEvent.pointerMove(trigger);
    expect(await screen.findByRole("tooltip")).toHaveProperty("textContent", "Copy the address");
    fireEvent.keyDown(document.activeElement ?? document.body, { key: "Escape" });
    await wait(50);
    expect(screen.queryByRole("tooltip")).toBeNull();
  });

  it("does not open when the trigger is pressed before the delay", async () => {
    const trigger = renderTooltip();
    fireEvent.pointerMove(trigger);
    fireEvent.pointerDown(trigger);
    act(() => trigger.focus());
    fireEvent.click(trigger);
    await wait(100);
    expect(screen.queryByRole("tooltip")).toBeNull();
    expect(screen.getByRole("button", { name: "Copy" }).dataset.state).toBe("closed");
  });
});
