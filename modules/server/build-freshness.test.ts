// When `npm start` builds the app again (build-freshness.ts): only when what the build is made
// from changed (sources, configuration, lockfile, the variables Next.js inlines), saying what.
// Each test has a small project directory of its own with a recorded build.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findRebuildReason, readBuildInputs, writeBuildRecord } from "./build-freshness";

type Environment = Record<string, string | undefined>;

const BUILT_ENVIRONMENT: Environment = {
  AUTH_SECRET: "first-secret",
  PORT: "3000",
  NEXT_PUBLIC_POSTHOG_KEY: "phc_first",
  NEXT_PUBLIC_SUPPORT_EMAIL: "help@example.org",
};

const FILES: Record<string, string> = {
  "app/page.tsx": "export default function Page() { return null; }\n",
  "app/footer.tsx": "export const SUPPORT = process.env.NEXT_PUBLIC_SUPPORT_EMAIL;\n",
  "modules/config/config.ts": 'export const read = (env: Record<string, string>) => env["NEXT_PUBLIC_POSTHOG_KEY"];\n',
  "modules/config/config.test.ts": "it('reads', () => {});\n",
  "messages/en.json": '{ "hello": "Hello" }\n',
  "next.config.ts": "export default { basePath: process.env.BASE_PATH ?? '' };\n",
  "package-lock.json": '{ "lockfileVersion": 3 }\n',
};

let projectDir: string;

function write(file: string, content: string) {
  fs.mkdirSync(path.dirname(path.join(projectDir, file)), { recursive: true });
  fs.writeFileSync(path.join(projectDir, file), content);
}

/** What `npm start` leaves after a build: .next/BUILD_ID and the record of the build's inputs. */
function recordBuild(environment: Environment) {
  write(".next/BUILD_ID", "build-1\n");
  writeBuildRecord(projectDir, readBuildInputs(projectDir, environment));
}

const rebuildReason = (environment: Environment) => findRebuildReason(projectDir, readBuildInputs(projectDir, environment));

/** Gives a file a modification time after the build's, as an editor or `touch` does. */
function touch(file: string) {
  const later = new Date(Date.now() + 60_000);
  fs.utimesSync(path.join(projectDir, file), later, later);
}

beforeEach(() => {
  projectDir = fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-build-"));
  for (const [file, content] of Object.entries(FILES)) write(file, content);
});

afterEach(() => {
  fs.rmSync(projectDir, { recursive: true, force: true });
});

describe("a production build recorded by npm start", () => {
  it("is kept when only variables the build does not inline changed (a secret, the port, a key read at request time)", () => {
    recordBuild(BUILT_ENVIRONMENT);

    expect(
      rebuildReason({
        ...BUILT_ENVIRONMENT,
        AUTH_SECRET: "second-secret",
        PORT: "4000",
        NEXT_PUBLIC_POSTHOG_KEY: "phc_second",
        SMTP_URL: "smtp://x",
      }),
    ).toBeNull();
  });

  it("is rebuilt when a source changed, naming the file", () => {
    recordBuild(BUILT_ENVIRONMENT);
    write("app/page.tsx", "export default function Page() { return 'new'; }\n");

    expect(rebuildReason(BUILT_ENVIRONMENT)).toBe("the sources changed (app/page.tsx)");
  });

  it("is rebuilt when a source was added or removed, or the lockfile changed, naming at most three files", () => {
    recordBuild(BUILT_ENVIRONMENT);
    write("components/button.tsx", "export const Button = 1;\n");
    fs.rmSync(path.join(projectDir, "messages/en.json"));
    write("package-lock.json", '{ "lockfileVersion": 3, "packages": {} }\n');
    write("modules/new.ts", "export {};\n");

    expect(rebuildReason(BUILT_ENVIRONMENT)).toBe(
      "the sources changed (components/button.tsx, messages/en.json, modules/new.ts and 1 more)",
    );
  });

  it("is kept when a file was only touched, or a test file changed (tests are not built)", () => {
    recordBuild(BUILT_ENVIRONMENT);
    touch("app/page.tsx");
    write("modules/config/config.test.ts", "it('reads again', () => {});\n");

    expect(rebuildReason(BUILT_ENVIRONMENT)).toBeNull();
  });

  it("is rebuilt when a NEXT_PUBLIC_ variable that the sources inline changed, was set or was unset, naming it", () => {
    recordBuild(BUILT_ENVIRONMENT);

    expect(rebuildReason({ ...BUILT_ENVIRONMENT, NEXT_PUBLIC_SUPPORT_EMAIL: "support@example.org" })).toBe(
      "NEXT_PUBLIC_SUPPORT_EMAIL changed",
    );
    expect(rebuildReason({ ...BUILT_ENVIRONMENT, NEXT_PUBLIC_SUPPORT_EMAIL: undefined })).toBe(
      "NEXT_PUBLIC_SUPPORT_EMAIL was unset",
    );
    expect(rebuildReason({ ...BUILT_ENVIRONMENT, NEXT_DEPLOYMENT_ID: "v2" })).toBe("NEXT_DEPLOYMENT_ID was set");
  });

  it("is rebuilt when a variable next.config.ts reads changed, with the sources' reason first", () => {
    recordBuild(BUILT_ENVIRONMENT);
    write("app/page.tsx", "export default function Page() { return 'new'; }\n");

    expect(rebuildReason({ ...BUILT_ENVIRONMENT, BASE_PATH: "/mail" })).toBe(
      "the sources changed (app/page.tsx); BASE_PATH was set",
    );
  });

  it("keeps no variable's value in its record, only a hash", () => {
    recordBuild(BUILT_ENVIRONMENT);

    const record = fs.readFileSync(path.join(projectDir, ".next", "hookmail-build.json"), "utf8");
    expect(record).not.toContain("help@example.org");
    expect(record).not.toContain("first-secret");
  });
});

describe("without a recorded build", () => {
  it("builds, saying there is no production build yet", () => {
    expect(rebuildReason(BUILT_ENVIRONMENT)).toBe("no production build yet");
  });

  it("trusts a build made by next build itself until a source is newer than it, naming that source", () => {
    write(".next/BUILD_ID", "build-1\n");
    const builtAt = new Date(Date.now() - 60_000);
    for (const file of Object.keys(FILES)) fs.utimesSync(path.join(projectDir, file), builtAt, builtAt);

    expect(rebuildReason(BUILT_ENVIRONMENT)).toBeNull();
    touch("app/footer.tsx");
    expect(rebuildReason(BUILT_ENVIRONMENT)).toBe("the sources changed since the last build (app/footer.tsx)");
  });
});
