// The file the parse pool's threads load (parse-pool.ts). It must load wherever the pool is made:
// under `node --import tsx` (npm start: threads inherit the flag), in Next's bundled route handlers
// and in test processes, where nothing compiles TypeScript yet. So it imports the TypeScript worker,
// and registers tsx first only when that import cannot load a .ts file.
let worker;
try {
  worker = await import("./parse-worker.ts");
} catch (error) {
  if (error?.code !== "ERR_UNKNOWN_FILE_EXTENSION") throw error;
  const { register } = await import("tsx/esm/api");
  register();
  worker = await import("./parse-worker.ts?with-tsx");
}

export default worker.default;
export const extractAttachment = worker.extractAttachment;
