// Downloads of stored content over real HTTP (docs/security.md: Large stored content): what clients
// that read nothing can hold, the owner's own downloads meanwhile, links of a deleted address, and
// an attachment whose name is broken UTF-16.
import { createHash, randomBytes } from "node:crypto";
import net from "node:net";
import v8 from "node:v8";
import vm from "node:vm";
import { createTransport } from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as content from "@/app/api/content/[processingId]/[...part]/route";
import * as attachmentRoute from "@/app/api/email-callbacks/[emailCallbackId]/processings/[processingId]/attachments/[index]/route";
import * as emailCallbackRoute from "@/app/api/email-callbacks/[emailCallbackId]/route";
import { getAuthSecret } from "@/modules/config/auth-secret";
import { setServices } from "@/modules/server/services";
import { type RouteHttpServer, startRouteHttpServer } from "@/tests/support/route-http-server";
import { type RouteTestApp, startRouteTestApp, type TestUser } from "@/tests/support/route-test-app";
import { seedDatabase } from "@/tests/support/seed";
import { type ContentLinkSigner, createContentLinkSigner, deriveContentLinkKey } from "./content-links";
import { createDownloadGate, DEFAULT_DOWNLOAD_LIMITS, type DownloadGate } from "./download-gate";

const MIB = 1024 * 1024;
const IDLE_MS = 1_500;
/** Clients that ask for a 16 MiB attachment and read nothing. */
const CLIENTS = 16;
const BIG = randomBytes(16 * MIB);
const SMALL = Buffer.from("id;name\n1;Zoë\n", "utf8");
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

let app: RouteTestApp;
let owner: TestUser;
let ownerKey: { Authorization: string };
let server: RouteHttpServer;
let gate: DownloadGate;
let signer: ContentLinkSigner;
const ids = { big: "ep_DownloadBig00000000001", small: "ep_DownloadSmall000000001", odd: "ep_DownloadOddName0000001" };
let emailCallbackId: string;

async function composeMail(attachments: { filename: string; content: Buffer }[]): Promise<Buffer> {
  const info = await createTransport({ streamTransport: true, buffer: true }).sendMail({
    from: "bob@example.org",
    to: "inbox@hookmail.test",
    subject: "Files",
    text: "Attached.",
    attachments,
  });
  return info.message as Buffer;
}

/** A message whose attachment is named `=?utf-16be?B?2ABB?=`: a lone high surrogate once decoded. */
const ODD_NAME_MAIL = Buffer.from(
  [
    "From: bob@example.org",
    "To: inbox@hookmail.test",
    "Subject: Odd name",
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="b"',
    "",
    "--b",
    "Content-Type: text/plain",
    "",
    "Attached.",
    "--b",
    'Content-Type: application/octet-stream; name="=?utf-16be?B?2ABB?="',
    'Content-Disposition: attachment; filename="=?utf-16be?B?2ABB?="',
    "Content-Transfer-Encoding: base64",
    "",
    SMALL.toString("base64"),
    "--b--",
    "",
  ].join("\r\n"),
);

/** Buffers no longer used are freed before memory is measured. */
const collectGarbage = (() => {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
})();

/**
 * The bytes this thread holds once its garbage is freed: its heap, and the memory outside it (every
 * Buffer, those the parsing threads handed over too). Unlike the process's RSS, it does not depend on
 * when the allocator of a Node version gives freed memory back to the system. Freed buffers are
 * counted off after the collection, so it collects until the figure settles.
 */
async function measureHeldBytes(): Promise<number> {
  let previous = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 10; round += 1) {
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
    const { heapUsed, external } = process.memoryUsage();
    const settled = Math.abs(heapUsed + external - previous) < MIB;
    previous = heapUsed + external;
    if (settled) break;
  }
  return previous;
}

beforeAll(async () => {
  app = await startRouteTestApp();
  owner = await app.signUp("owner");
  ownerKey = (await app.createApiKey(owner)).headers;
  const { emailCallbacks } = await seedDatabase(app.database, { emailCallbacks: [{ userId: owner.userId }] });
  emailCallbackId = emailCallbacks[0]!.id;
  const mails = {
    big: await composeMail([{ filename: "scan.bin", content: BIG }]),
    small: await composeMail([{ filename: "données.csv", content: SMALL }]),
  };
  await seedDatabase(app.database, {
    processings: [
      { id: ids.big, emailCallbackId, rawMessage: new Uint8Array(mails.big) },
      { id: ids.small, emailCallbackId, rawMessage: new Uint8Array(mails.small) },
      { id: ids.odd, emailCallbackId, rawMessage: new Uint8Array(ODD_NAME_MAIL) },
    ],
  });
  useGate(DEFAULT_DOWNLOAD_LIMITS.idleMs);
  server = await startRouteHttpServer([
    { method: "GET", path: "/api/content/:processingId/raw", handler: withPart(["raw"]) },
    { method: "GET", path: "/api/content/:processingId/attachments/:index", handler: withPart(["attachments"]) },
    {
      method: "GET",
      path: "/api/email-callbacks/:emailCallbackId/processings/:processingId/attachments/:index",
      handler: attachmentRoute.GET,
    },
  ]);
  signer = createContentLinkSigner({
    baseUrl: server.baseUrl,
    key: deriveContentLinkKey(getAuthSecret(app.config).secret),
    expiresAt: new Date(Date.now() + 3_600_000),
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await app?.close();
});

/** The routes' gate from now on: the default limits, clients cut off after `idleMs`. */
function useGate(idleMs: number) {
  gate = createDownloadGate({ ...DEFAULT_DOWNLOAD_LIMITS, idleMs });
  setServices({ ...app.services, downloadGate: gate });
}

/** The content route under the route server's `:name` params (Next.js gives it the catch-all `part`). */
function withPart(prefix: string[]) {
  return (request: Request, context: { params: Promise<Record<string, string>> }) =>
    context.params.then(({ processingId, index }) =>
      content.GET(request, {
        params: Promise.resolve({ processingId: processingId!, part: index === undefined ? prefix : [...prefix, index] }),
      }),
    );
}

type StalledClient = { status: number; contentLength: number; socket: net.Socket };

/** A client that sends its request, reads the first bytes of the answer (its head) and then nothing. */
function openStalledClient(url: string): Promise<StalledClient> {
  const { hostname, port, pathname, search } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  socket.write(`GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
  return new Promise((resolve, reject) => {
    socket.once("error", reject);
    socket.once("data", (chunk: Buffer) => {
      socket.pause();
      const head = chunk.toString("latin1");
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
        contentLength: Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1]),
        socket,
      });
    });
  });
}

/** Resumes a stalled client: the bytes it then receives in all, once the server has closed the connection. */
function drain(client: StalledClient): Promise<number> {
  return new Promise((resolve) => {
    let received = 0;
    client.socket.on("data", (chunk: Buffer) => {
      received += chunk.byteLength;
    });
    client.socket.once("close", () => resolve(received));
    client.socket.resume();
  });
}

const waitUntil = async (isDone: () => boolean, timeoutMs: number) => {
  const started = Date.now();
  while (!isDone() && Date.now() - started < timeoutMs) await new Promise((resolve) => setTimeout(resolve, 50));
};

describe("downloads of stored content while many clients hold a large attachment's link and read nothing", () => {
  it("hold at most the link's few places and a bounded amount of memory, answer the rest 503, and the owner's small downloads still answer 200", async () => {
    useGate(DEFAULT_DOWNLOAD_LIMITS.idleMs);
    const link = signer.link(ids.big, "attachments/0");
    // Two whole downloads first, so that the memory the parsing threads and the database client
    // keep for their next message is counted before, not as held; their places go once sent.
    await Promise.all([fetch(link), fetch(link)].map(async (answer) => (await answer).arrayBuffer()));
    await waitUntil(() => gate.counts().running === 0, 5_000);
    const before = await measureHeldBytes();
    const clients = await Promise.all(Array.from({ length: CLIENTS }, () => openStalledClient(link)));
    try {
      const held = (await measureHeldBytes()) - before;
      console.info(`held by ${CLIENTS} clients that read nothing: ${(held / MIB).toFixed(0)} MiB`);
      // The link's two places of 16 MiB; not one copy per client.
      expect(held).toBeLessThan((DEFAULT_DOWNLOAD_LIMITS.perLink + 1) * BIG.byteLength);

      const statuses = clients.map((client) => client.status).sort();
      expect(statuses.filter((status) => status === 200)).toHaveLength(DEFAULT_DOWNLOAD_LIMITS.perLink);
      expect(statuses.filter((status) => status === 503)).toHaveLength(CLIENTS - DEFAULT_DOWNLOAD_LIMITS.perLink);
      expect(gate.counts().byHolder[`link:${ids.big}/attachments/0`]).toBe(DEFAULT_DOWNLOAD_LIMITS.perLink);

      const ownSmall = await fetch(
        `${server.baseUrl}/api/email-callbacks/${emailCallbackId}/processings/${ids.small}/attachments/0`,
        {
          headers: ownerKey,
        },
      );
      expect(ownSmall.status).toBe(200);
      expect(Buffer.from(await ownSmall.arrayBuffer()).equals(SMALL)).toBe(true);
      const smallLink = await fetch(signer.link(ids.small, "attachments/0"));
      expect(smallLink.status).toBe(200);
      expect(Buffer.from(await smallLink.arrayBuffer()).equals(SMALL)).toBe(true);
    } finally {
      for (const client of clients) client.socket.destroy();
    }
    await waitUntil(() => gate.counts().running === 0, 5_000);
    expect(gate.counts()).toEqual({ running: 0, waiting: 0, heldBytes: 0, byHolder: {} });
  }, 120_000);

  it("cut off a client that reads nothing after the idle time, and free its place for the next one, who gets the whole attachment", async () => {
    useGate(IDLE_MS);
    const link = signer.link(ids.big, "attachments/0");
    const stalled = await openStalledClient(link);
    expect(stalled.status).toBe(200);
    expect(gate.counts().running).toBe(1);
    await waitUntil(() => gate.counts().running === 0, IDLE_MS + 3_000);
    expect(gate.counts().running).toBe(0);
    expect(await drain(stalled)).toBeLessThan(stalled.contentLength);

    const next = await fetch(link);
    expect(next.status).toBe(200);
    expect(sha256(Buffer.from(await next.arrayBuffer()))).toBe(sha256(BIG));
    expect(gate.counts().running).toBe(0);
  }, 60_000);
});

describe("a content link (docs/webhooks.md: Content by link)", () => {
  it("downloads an attachment whose name is a lone surrogate under a well-formed name, as the API does", async () => {
    const linked = await fetch(signer.link(ids.odd, "attachments/0"));
    expect(linked.status).toBe(200);
    expect(linked.headers.get("content-disposition")).toBe(`attachment; filename="_"; filename*=UTF-8''%EF%BF%BD`);
    expect(Buffer.from(await linked.arrayBuffer()).equals(SMALL)).toBe(true);
    const own = await fetch(`${server.baseUrl}/api/email-callbacks/${emailCallbackId}/processings/${ids.odd}/attachments/0`, {
      headers: ownerKey,
    });
    expect(own.status).toBe(200);
    expect(own.headers.get("content-disposition")).toContain("filename*=UTF-8''%EF%BF%BD");
  });

  it("answers not found once its address is deleted, exactly as a tampered link does", async () => {
    const { emailCallbacks } = await seedDatabase(app.database, { emailCallbacks: [{ userId: owner.userId }] });
    const doomed = emailCallbacks[0]!.id;
    const mail = await composeMail([{ filename: "données.csv", content: SMALL }]);
    const {
      processings: [processing],
    } = await seedDatabase(app.database, { processings: [{ emailCallbackId: doomed, rawMessage: new Uint8Array(mail) }] });
    const links = [signer.link(processing!.id, "raw"), signer.link(processing!.id, "attachments/0")];
    for (const link of links) expect((await fetch(link)).status).toBe(200);

    const deleted = await app.call(emailCallbackRoute.DELETE, {
      path: `/api/email-callbacks/${doomed}`,
      method: "DELETE",
      headers: owner.headers,
      params: { emailCallbackId: doomed },
    });
    expect(deleted.status).toBeLessThan(300);

    const answer = async (link: string) => {
      const response = await fetch(link);
      return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
    };
    const tampered = await answer(
      links[0]!.replace(/signature=(.)/, (_, first: string) => `signature=${first === "A" ? "B" : "A"}`),
    );
    expect(tampered.status).toBe(404);
    for (const link of links) expect(await answer(link)).toEqual(tampered);
  });
});
