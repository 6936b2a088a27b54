import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { CHARSET_SAMPLES } from "../test-support/charset-samples";
import { decodeEncodedWords } from "./encoded-words";

const bWord = (charset: string, text: string) => `=?${charset}?B?${iconv.encode(text, charset).toString("base64")}?=`;

function timeDecoding(value: string): number {
  const started = performance.now();
  decodeEncodedWords(value);
  return performance.now() - started;
}

describe("decodeEncodedWords", () => {
  it.each(CHARSET_SAMPLES)(
    "decodes %s words with iconv-lite (windows-1252 0x80–0x9F are not control characters)",
    (charset, text) => {
      expect(decodeEncodedWords(`Subject: ${bWord(charset, text)}`)).toBe(`Subject: ${text}`);
    },
  );

  it("decodes a windows-1252 Q word's 0x80–0x9F bytes as € ‘ ’ “ ” – —", () => {
    expect(decodeEncodedWords("=?windows-1252?Q?=80_=91a=92_=93b=94_=96_=97?=")).toBe("€ ‘a’ “b” – —");
  });

  it("decodes an unknown charset label as UTF-8 when the bytes are valid UTF-8, else as latin1", () => {
    expect(decodeEncodedWords(`=?x-unknown?B?${Buffer.from("héllo €").toString("base64")}?=`)).toBe("héllo €");
    expect(decodeEncodedWords("=?x-unknown?Q?caf=E9?=")).toBe("café");
  });

  it("joins the bytes of consecutive words of one charset, so a character split across words survives", () => {
    const bytes = Buffer.from("€uro", "utf8");
    const words = `=?utf-8?B?${bytes.subarray(0, 2).toString("base64")}?= =?utf-8?B?${bytes.subarray(2).toString("base64")}?=`;
    expect(decodeEncodedWords(words)).toBe("€uro");
  });

  it("decodes a long run of encoded words in linear time (doubling the run at most ~doubles the time)", () => {
    const run = (count: number) => Array.from({ length: count }, () => "=?utf-8?Q?ab?=").join(" ");
    const small = run(100_000);
    const large = run(200_000);
    timeDecoding(small);
    const smallMs = Math.min(timeDecoding(small), timeDecoding(small));
    const largeMs = Math.min(timeDecoding(large), timeDecoding(large));
    expect(decodeEncodedWords(small)).toBe("ab".repeat(100_000));
    expect(largeMs).toBeLessThan(Math.max(smallMs, 5) * 4);
    expect(largeMs).toBeLessThan(1000);
  });
});
