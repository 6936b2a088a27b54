// @vitest-environment jsdom
// The dates of a page follow one clock: one interval however many are shown, gone with the last.
import { act, cleanup, render, screen } from "@testing-library/react";
import { NextIntlClientProvider } from "next-intl";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TooltipProvider } from "@/components/ui/tooltip";
import en from "@/messages/en.json";
import { RelativeTime } from "./relative-time";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function renderDates(dates: Date[]) {
  return render(
    <NextIntlClientProvider locale="en" messages={en}>
      <TooltipProvider>
        {dates.map((date) => (
          <RelativeTime key={date.toISOString()} date={date} />
        ))}
      </TooltipProvider>
    </NextIntlClientProvider>,
  );
}

describe("the relative time", () => {
  it("shares one interval between all the dates shown, and stops it when none is left", () => {
    vi.useFakeTimers({ now: new Date("2030-01-01T12:00:00Z") });
    const setIntervalSpy = vi.spyOn(globalThis, "setInterval");
    const clearIntervalSpy = vi.spyOn(globalThis, "clearInterval");
    const now = Date.now();
    const view = renderDates([new Date(now - 1000), new Date(now - 3 * 60_000), new Date(now - 2 * 3_600_000)]);
    expect(setIntervalSpy).toHaveBeenCalledTimes(1);
    expect(screen.getByText("just now")).toBeTruthy();

    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.getByText("11 seconds ago")).toBeTruthy();
    expect(screen.getByText("3 minutes ago")).toBeTruthy();
    expect(setIntervalSpy).toHaveBeenCalledTimes(1);

    view.unmount();
    expect(clearIntervalSpy).toHaveBeenCalledTimes(1);
  });
});
