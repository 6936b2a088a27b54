// The generated AUTH_SECRET is kept owner-only (docs/security.md): DATA_DIR 0700, the file 0600,
// and both are tightened when found wider.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { modeOf, setUpScratchDirectory } from "@/tests/support/file-modes";
import { getAuthSecret } from "./auth-secret";
import { loadConfig } from "./config";

const scratch = setUpScratchDirectory({ prefix: "hookmail-auth-secret-", umask: 0o022 });

describe("the generated AUTH_SECRET", () => {
  it("is created in a new DATA_DIR made 0700, in a file made 0600, with a notice", () => {
    const dataDir = path.join(scratch.root, "nested", "data");
    const { secret, notice } = getAuthSecret(loadConfig({ DATA_DIR: dataDir }));
    expect(secret).toMatch(/^[\w-]{43}$/);
    expect(notice).toMatch(/AUTH_SECRET is not set/);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, "auth-secret"))).toBe(0o600);
    expect(getAuthSecret(loadConfig({ DATA_DIR: dataDir }))).toEqual({ secret });
  });

  it("tightens an existing 0755 DATA_DIR and a 0644 secret file at start, and keeps the secret", () => {
    const dataDir = path.join(scratch.root, "data");
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, "auth-secret"), "kept-secret\n", { mode: 0o644 });
    expect(modeOf(dataDir)).toBe(0o755);

    expect(getAuthSecret(loadConfig({ DATA_DIR: dataDir }))).toEqual({ secret: "kept-secret" });
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, "auth-secret"))).toBe(0o600);
  });

  it("touches no file when AUTH_SECRET is set", () => {
    const dataDir = path.join(scratch.root, "unused");
    expect(getAuthSecret(loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: "set-in-the-environment-0123456789" }))).toEqual({
      secret: "set-in-the-environment-0123456789",
    });
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});
