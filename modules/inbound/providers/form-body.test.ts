import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { CHARSET_SAMPLES } from "../test-support/charset-samples";
import { expectAppError } from "../test-support/inbound-test-helpers";
import { decodeText, FORM_LIMITS, findFormPart, parseFormBody, readFormText } from "./form-body";

async function encodeMultipart(form: FormData) {
  const request = new Request("http://hookmail.test/", { method: "POST", body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get("content-type") };
}

describe("parseFormBody", () => {
  it("reads multipart fields and files as the platform's FormData encodes them", async () => {
    const form = new FormData();
    form.append("subject", "Caf\u00e9 \u2615");
    form.append("empty", "");
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x0d, 0x0a, 0x2d, 0x2d]);
    form.append("attachment-1", new Blob([bytes], { type: "image/png" }), "crab \u00e9.png");
    const { body, contentType } = await encodeMultipart(form);

    const parts = parseFormBody(body, contentType);

    expect(parts.map(({ name }) => name)).toEqual(["subject", "empty", "attachment-1"]);
    expect(readFormText(parts, "subject")).toBe("Caf\u00e9 \u2615");
    expect(readFormText(parts, "empty")).toBe("");
    const file = findFormPart(parts, "attachment-1");
    expect(file?.data.equals(bytes)).toBe(true);
    expect(file).toMatchObject({ filename: "crab \u00e9.png", contentType: "image/png" });
  });

  it("keeps a field's bytes, so a Latin-1 field decodes with its charset", () => {
    const body = Buffer.concat([
      Buffer.from('--b\r\nContent-Disposition: form-data; name="text"\r\n\r\n'),
      Buffer.from("Caf\u00e9", "latin1"),
      Buffer.from("\r\n--b--\r\n"),
    ]);
    const parts = parseFormBody(body, 'multipart/form-data; boundary="b"');
    expect(findFormPart(parts, "text")?.data).toEqual(Buffer.from([0x43, 0x61, 0x66, 0xe9]));
    expect(readFormText(parts, "text", "iso-8859-1")).toBe("Caf\u00e9");
  });

  it("reads urlencoded fields, '+' as a space, percent-escapes as bytes", () => {
    const body = Buffer.from("recipient=alice%40hookmail.test&subject=Hello+world&body-plain=caf%C3%A9&latin=caf%E9&flag");
    const parts = parseFormBody(body, "application/x-www-form-urlencoded; charset=utf-8");
    expect(readFormText(parts, "recipient")).toBe("alice@hookmail.test");
    expect(readFormText(parts, "subject")).toBe("Hello world");
    expect(readFormText(parts, "body-plain")).toBe("caf\u00e9");
    expect(findFormPart(parts, "latin")?.data).toEqual(Buffer.from("caf\u00e9", "latin1"));
    expect(readFormText(parts, "flag")).toBe("");
  });

  it("answers 400 for a body that is not a form post, or a multipart body cut short", async () => {
    const cut = Buffer.from('--b\r\nContent-Disposition: form-data; name="email"\r\n\r\nFrom: a@b\r\n');
    const cases: [Buffer, string][] = [
      [Buffer.from("{}"), "application/json"],
      [Buffer.from("x"), "multipart/form-data"],
      [cut, "multipart/form-data; boundary=b"],
    ];
    for (const [body, contentType] of cases) {
      await expectAppError(
        Promise.resolve().then(() => parseFormBody(body, contentType)),
        "inbound.invalid_message",
        400,
      );
    }
  });
});

const URLENCODED = "application/x-www-form-urlencoded";

function timeParsing(body: Buffer, contentType: string): number {
  const started = performance.now();
  parseFormBody(body, contentType);
  return performance.now() - started;
}

/** Many fields with values of `size` bytes each. */
const urlencodedFields = (count: number, size: number) =>
  Buffer.from(Array.from({ length: count }, () => `a=${"v".repeat(size)}`).join("&"));

function multipartParts(count: number, size: number): Buffer {
  const part = `--b\r\nContent-Disposition: form-data; name="f"\r\n\r\n${"x".repeat(size)}\r\n`;
  return Buffer.from(`${part.repeat(count)}--b--\r\n`);
}

describe("parseFormBody is linear and capped (docs/security.md)", () => {
  it("refuses a 3 MB urlencoded body of tiny fields with 400 at the field cap, in well under a second", async () => {
    const body = Buffer.from("a&".repeat(1_500_000));
    const started = performance.now();
    await expectAppError(
      Promise.resolve().then(() => parseFormBody(body, URLENCODED)),
      "inbound.invalid_message",
      400,
    );
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("refuses a 3 MB multipart body of tiny parts with 400 at the part cap, in well under a second", async () => {
    const body = multipartParts(60_000, 1);
    expect(body.length).toBeGreaterThan(3_000_000);
    const started = performance.now();
    await expectAppError(
      Promise.resolve().then(() => parseFormBody(body, "multipart/form-data; boundary=b")),
      "inbound.invalid_message",
      400,
    );
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("reads urlencoded fields in linear time: doubling the body at most ~doubles the time", () => {
    const count = FORM_LIMITS.maxFields - 1;
    const small = urlencodedFields(count, 10_000);
    const large = urlencodedFields(count, 20_000);
    timeParsing(small, URLENCODED);
    const smallMs = Math.min(timeParsing(small, URLENCODED), timeParsing(small, URLENCODED));
    const largeMs = Math.min(timeParsing(large, URLENCODED), timeParsing(large, URLENCODED));
    expect(largeMs).toBeLessThan(Math.max(smallMs, 10) * 4);
    expect(largeMs).toBeLessThan(1000);
  });

  it("reads multipart parts in linear time: no part searches the rest of the body for its end of headers", () => {
    const contentType = "multipart/form-data; boundary=b";
    const count = FORM_LIMITS.maxFields - 1;
    const small = multipartParts(count, 10_000);
    const large = multipartParts(count, 20_000);
    expect(parseFormBody(small, contentType)).toHaveLength(count);
    const smallMs = Math.min(timeParsing(small, contentType), timeParsing(small, contentType));
    const largeMs = Math.min(timeParsing(large, contentType), timeParsing(large, contentType));
    expect(largeMs).toBeLessThan(Math.max(smallMs, 10) * 4);
    expect(largeMs).toBeLessThan(1000);
  });

  it("refuses with 400 more fields than the cap, a field name over its cap and a part header block over its cap", async () => {
    const cases: [Buffer, string][] = [
      [Buffer.from("a=1&".repeat(FORM_LIMITS.maxFields + 1)), URLENCODED],
      [multipartParts(FORM_LIMITS.maxFields + 1, 1), "multipart/form-data; boundary=b"],
      [Buffer.from(`${"n".repeat(FORM_LIMITS.maxFieldNameBytes + 1)}=1`), URLENCODED],
      [
        Buffer.from(
          `--b\r\nContent-Disposition: form-data; name="f"\r\nX-Long: ${"x".repeat(FORM_LIMITS.maxPartHeaderBytes)}\r\n\r\nv\r\n--b--\r\n`,
        ),
        "multipart/form-data; boundary=b",
      ],
    ];
    for (const [body, contentType] of cases) {
      await expectAppError(
        Promise.resolve().then(() => parseFormBody(body, contentType)),
        "inbound.invalid_message",
        400,
      );
    }
  });

  it("with partial, yields the fields complete so far of a body cut short", () => {
    const multipart = Buffer.from(
      '--b\r\nContent-Disposition: form-data; name="token"\r\n\r\nt1\r\n--b\r\nContent-Disposition: form-data; name="big"\r\n\r\nxx',
    );
    expect(parseFormBody(multipart, "multipart/form-data; boundary=b", { partial: true }).map(({ name }) => name)).toEqual([
      "token",
    ]);
    expect(parseFormBody(Buffer.from("token=t1&big=xx"), URLENCODED, { partial: true }).map(({ name }) => name)).toEqual([
      "token",
    ]);
  });
});

describe("decodeText", () => {
  it("decodes an unknown charset as UTF-8 when the bytes are valid UTF-8, else as latin1", () => {
    expect(decodeText(Buffer.from("caf\u00e9"), "x-unknown")).toBe("caf\u00e9");
    expect(decodeText(Buffer.from([0x63, 0x61, 0x66, 0xe9]), "x-unknown")).toBe("caf\u00e9");
  });

  it.each(CHARSET_SAMPLES)(
    "decodes %s with iconv-lite (windows-1252's 0x80–0x9F are not control characters)",
    (charset, text) => {
      expect(decodeText(iconv.encode(text, charset), charset)).toBe(text);
    },
  );
});
