// A value kept once per process is shared by every copy of the module that asks for it by name
// (the custom server's and Next's bundled route handlers'), and made once.
import { expect, it } from "vitest";
import { processSingleton } from "./process-singleton";

it("is shared by every holder of the same name, made once, and set or cleared by any of them", () => {
  const name = `test-${Math.random()}`;
  const [first, second] = [processSingleton<{ id: number }>(name), processSingleton<{ id: number }>(name)];
  let made = 0;
  const create = () => {
    made += 1;
    return { id: made };
  };

  expect(first.get()).toBeUndefined();
  expect(first.getOrCreate(create)).toBe(second.getOrCreate(create));
  expect(made).toBe(1);

  second.set({ id: 42 });
  expect(first.get()).toEqual({ id: 42 });
  first.set(undefined);
  expect(second.get()).toBeUndefined();
  expect(processSingleton(`${name}-other`).get()).toBeUndefined();
});
