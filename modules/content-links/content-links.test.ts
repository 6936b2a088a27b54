import { describe, expect, it } from "vitest";
import { createContentLinkSigner, deriveContentLinkKey, isContentLinkValid, parseContentPart } from "./content-links";
import { toContentDisposition } from "./content-links.usecases";

const key = deriveContentLinkKey("a-test-auth-secret-a-test-auth-secret");
const expiresAt = new Date("2026-11-26T10:00:00Z");
const signer = createContentLinkSigner({ baseUrl: "https://hookmail.example", key, expiresAt });

function readLink(url: string) {
  const link = new URL(url);
  const [, , , processingId, ...segments] = link.pathname.split("/");
  return {
    processingId: processingId!,
    part: parseContentPart(segments)!,
    expires: link.searchParams.get("expires"),
    signature: link.searchParams.get("signature"),
  };
}

describe("content links (docs/webhooks.md: Content by link)", () => {
  it("point at the processing's part under BASE_URL and hold while not expired", () => {
    const url = signer.link("ep_1", "attachments/2");
    expect(url).toMatch(/^https:\/\/hookmail\.example\/api\/content\/ep_1\/attachments\/2\?expires=\d+&signature=[\w-]+$/);
    expect(isContentLinkValid({ key, ...readLink(url), now: new Date("2026-11-26T09:59:59Z") })).toBe(true);
  });

  it("no longer hold once expired", () => {
    expect(isContentLinkValid({ key, ...readLink(signer.link("ep_1", "raw")), now: expiresAt })).toBe(false);
  });

  it("do not hold for another processing, another part, another expiry, another key or a changed signature", () => {
    const link = readLink(signer.link("ep_1", "raw"));
    const now = new Date("2026-11-25T00:00:00Z");
    expect(isContentLinkValid({ key, ...link, processingId: "ep_2", now })).toBe(false);
    expect(isContentLinkValid({ key, ...link, part: "attachments/0", now })).toBe(false);
    expect(isContentLinkValid({ key, ...link, expires: String(Number(link.expires) + 60), now })).toBe(false);
    expect(isContentLinkValid({ key: deriveContentLinkKey("another-secret-another-secret-another"), ...link, now })).toBe(false);
    expect(
      isContentLinkValid({
        key,
        ...link,
        signature: `${link.signature!.slice(0, -1)}${link.signature!.endsWith("A") ? "B" : "A"}`,
        now,
      }),
    ).toBe(false);
    expect(isContentLinkValid({ key, ...link, signature: null, now })).toBe(false);
    expect(isContentLinkValid({ key, ...link, expires: "soon", now })).toBe(false);
  });

  it("name only the raw message or an attachment by its place", () => {
    expect(parseContentPart(["raw"])).toBe("raw");
    expect(parseContentPart(["attachments", "0"])).toBe("attachments/0");
    for (const segments of [["attachments", "01"], ["attachments", "-1"], ["attachments"], ["payload"], ["raw", "x"]]) {
      expect(parseContentPart(segments)).toBeNull();
    }
  });

  it("download under the attachment's own name, kept safe in the header", () => {
    expect(toContentDisposition('rapport "final".pdf')).toBe(
      `attachment; filename="rapport _final_.pdf"; filename*=UTF-8''rapport%20%22final%22.pdf`,
    );
    expect(toContentDisposition("données.csv")).toBe(`attachment; filename="donn_es.csv"; filename*=UTF-8''donn%C3%A9es.csv`);
    expect(toContentDisposition("")).toContain('filename="attachment"');
  });

  it("download under a well-formed name when the attachment's name is broken UTF-16 (a lone surrogate)", () => {
    expect(toContentDisposition("\uD800")).toBe(`attachment; filename="_"; filename*=UTF-8''%EF%BF%BD`);
    expect(toContentDisposition("a\uDC00b.txt")).toBe(`attachment; filename="a_b.txt"; filename*=UTF-8''a%EF%BF%BDb.txt`);
  });
});
