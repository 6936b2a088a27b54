// The file the parse pool's threads load (parse-pool.ts). It must load wherever the pool is made:
// under `node --import tsx` (npm start: threads inherit the flag), in Next's bundled route handlers
// and in test processes, where nothing compiles TypeScript yet. So it always imports the TypeScript
// worker through tsx's scoped import: Node itself loading a .ts file (it strips types from 22.18 on)
// is not enough, as the worker's own imports (`@/` paths, no extensions) resolve only through tsx.
import { tsImport } from "tsx/esm/api";

const worker = await tsImport("./parse-worker.ts", import.meta.url);

export default worker.default;
export const extractAttachment = worker.extractAttachment;
