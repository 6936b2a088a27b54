// Where the project's files are on disk, for code that loads a file of its own at run time (the
// parse pool's thread file). `npm start` records it before anything else; Next's bundled route
// handlers share it through globalThis, like the database. Processes that do not record it (tests,
// benchmarks) run from the project directory, so the working directory stands in.
const globalForProjectDir = globalThis as typeof globalThis & { __hookmailProjectDir?: string };

export function setProjectDir(directory: string) {
  globalForProjectDir.__hookmailProjectDir = directory;
}

export function getProjectDir(): string {
  return globalForProjectDir.__hookmailProjectDir ?? process.cwd();
}
