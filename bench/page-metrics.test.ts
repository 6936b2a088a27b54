import { describe, expect, it } from "vitest";
import { endOfBusyTime, median, totalBlockingTime } from "./page-metrics";

describe("median", () => {
  it("is the middle value of an odd count, whatever the order", () => {
    expect(median([900, 100, 500, 300, 700])).toBe(500);
  });

  it("is the mean of the two middle values of an even count", () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("is NaN without values", () => {
    expect(median([])).toBeNaN();
  });
});

describe("totalBlockingTime", () => {
  it("sums what each task lasts beyond 50 ms", () => {
    const tasks = [
      { startTime: 1000, duration: 120 },
      { startTime: 2000, duration: 50 },
      { startTime: 3000, duration: 51 },
      { startTime: 4000, duration: 30 },
    ];
    expect(totalBlockingTime(tasks, { from: 0, to: 10_000 })).toBe(70 + 0 + 1);
  });

  it("counts only the part of a task inside the window (after First Contentful Paint)", () => {
    const tasks = [
      { startTime: 900, duration: 300 }, // 200 ms of it after FCP at 1000
      { startTime: 500, duration: 100 }, // ended before FCP
      { startTime: 4950, duration: 200 }, // 50 ms of it before the window's end: nothing
    ];
    expect(totalBlockingTime(tasks, { from: 1000, to: 5000 })).toBe(150);
  });

  it("is zero without long tasks", () => {
    expect(totalBlockingTime([], { from: 0, to: 1000 })).toBe(0);
  });
});

describe("endOfBusyTime", () => {
  it("ends at the last task before the first quiet gap", () => {
    const tasks = [
      { startTime: 1200, duration: 100 },
      { startTime: 2000, duration: 300 },
      { startTime: 9000, duration: 100 }, // after a 6.7 s gap
    ];
    expect(endOfBusyTime(tasks, 1000, 5000)).toBe(2300);
  });

  it("counts a task that started before `after` and ends after it", () => {
    expect(endOfBusyTime([{ startTime: 800, duration: 400 }], 1000, 5000)).toBe(1200);
  });

  it("is `after` when no task ends later", () => {
    expect(endOfBusyTime([{ startTime: 100, duration: 60 }], 1000, 5000)).toBe(1000);
  });
});
