// A clock that moves only when the test moves it, for code that takes `clock: () => Date`: retries,
// leases and alert intervals are then tested without real waiting.

export type TestClock = {
  /** The clock's time: pass `now` itself as the code's `clock`. */
  now: () => Date;
  set: (date: Date) => void;
  advance: (ms: number) => void;
};

export function createTestClock(start = new Date()): TestClock {
  let current = start;
  return {
    now: () => current,
    set: (date) => {
      current = date;
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms);
    },
  };
}
