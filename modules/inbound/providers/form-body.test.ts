import { describe, expect, it } from "vitest";
import { decodeText, findFormPart, parseFormBody, readFormText } from "./form-body";
import { expectAppError } from "./fixtures/inbound-test-helpers";

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

describe("decodeText", () => {
  it("falls back to UTF-8 for an unknown charset", () => {
    expect(decodeText(Buffer.from("caf\u00e9"), "x-unknown")).toBe("caf\u00e9");
  });
});
