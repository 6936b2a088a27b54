// Values kept once per process (docs/architecture.md: The parts): the custom server and Next's
// separately bundled route handlers each load their own copy of a module, yet must share one
// configuration, one database, one parse pool, one dispatcher. The value lives on globalThis under
// a name of its own, which every copy of the module finds.

export type ProcessSingleton<T> = {
  get: () => T | undefined;
  set: (value: T | undefined) => void;
  /** The value, made by `create` on first use. */
  getOrCreate: (create: () => T) => T;
};

export function processSingleton<T>(name: string): ProcessSingleton<T> {
  const key = Symbol.for(`hookmail.${name}`);
  const store = globalThis as unknown as Record<symbol, T | undefined>;
  return {
    get: () => store[key],
    set: (value) => {
      store[key] = value;
    },
    getOrCreate: (create) => {
      store[key] ??= create();
      return store[key] as T;
    },
  };
}
