// Where the project's files are on disk, for code that loads a file of its own at run time (the
// parse pool's thread file). `npm start` records it before anything else; Next's bundled route
// handlers share it through globalThis, like the database. Processes that do not record it (tests,
// benchmarks) run from the project directory, so the working directory stands in.
import { processSingleton } from "./process-singleton";

const projectDir = processSingleton<string>("projectDir");

export function setProjectDir(directory: string) {
  projectDir.set(directory);
}

export function getProjectDir(): string {
  return projectDir.get() ?? process.cwd();
}
