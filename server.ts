// Entry point of `npm start`: one process serving the roles of HOOKMAIL_ROLES. It serves a
// production build, so NODE_ENV defaults to production before Next.js is loaded.
const environment = process.env as Record<string, string | undefined>;
environment.NODE_ENV ??= "production";

const { startHookmail } = await import("./modules/server/start");
await startHookmail({ projectDir: import.meta.dirname });
