// The documentation page shows what docs/webhooks.md says: the same example body, header values,
// signature recipe and verification snippets, and an example body that has the schema's fields.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import schema from "@/docs/webhook-payload.schema.json";
import {
  formatJson,
  WEBHOOK_EXAMPLE_BODY,
  WEBHOOK_EXAMPLE_PAYLOAD,
  WEBHOOK_REQUEST_HEADERS,
  WEBHOOK_VERIFICATION_SNIPPETS,
} from "./webhook-docs.constants";

const markdown = fs.readFileSync(path.resolve(import.meta.dirname, "../../docs/webhooks.md"), "utf8");

function fencedBlocks(language: string, text = markdown): string[] {
  return [...text.matchAll(/```(\w*)\n([\s\S]*?)```/g)].filter((match) => match[1] === language).map((match) => match[2] ?? "");
}

describe("webhook documentation constants", () => {
  it("the example body is the one of docs/webhooks.md", () => {
    const [body] = fencedBlocks("json");
    expect(JSON.parse(body ?? "")).toEqual(WEBHOOK_EXAMPLE_PAYLOAD);
  });

  it("the example body is shown as JSON of that value, in lines of at most 80 columns", () => {
    expect(JSON.parse(WEBHOOK_EXAMPLE_BODY)).toEqual(WEBHOOK_EXAMPLE_PAYLOAD);
    expect(Math.max(...WEBHOOK_EXAMPLE_BODY.split("\n").map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(WEBHOOK_EXAMPLE_BODY).toContain('"envelope": { "from": "bob@example.org", "to": ["alice@example.com"] },');
    expect(WEBHOOK_EXAMPLE_BODY).toContain('"cc": [],');
  });

  it("formatJson keeps what fits on one line and breaks the rest", () => {
    expect(formatJson({ a: [1, 2], b: {}, c: null })).toBe('{ "a": [1, 2], "b": {}, "c": null }');
    const long = { items: [{ name: "x".repeat(40), value: "y".repeat(40) }] };
    expect(formatJson(long)).toBe(
      `{\n  "items": [\n    {\n      "name": "${"x".repeat(40)}",\n      "value": "${"y".repeat(40)}"\n    }\n  ]\n}`,
    );
    expect(JSON.parse(formatJson(long))).toEqual(long);
  });

  it("the headers and their example values are those of docs/webhooks.md", () => {
    const [request] = fencedBlocks("");
    for (const header of WEBHOOK_REQUEST_HEADERS) expect(request).toContain(`${header.name}: ${header.example}`);
  });

  it("each verification snippet is a code block of docs/webhooks.md § Verifying the signature, verbatim", () => {
    const start = markdown.indexOf("\n## Verifying the signature\n");
    const end = markdown.indexOf("\n## ", start + 1);
    const section = markdown.slice(start, end === -1 ? undefined : end);
    expect(start).toBeGreaterThan(-1);
    const blocks = ["js", "python", "go"].flatMap((language) => fencedBlocks(language, section)).map((block) => block.trimEnd());
    expect(WEBHOOK_VERIFICATION_SNIPPETS.map((snippet) => snippet.code)).toEqual(blocks);
  });

  it("the example body has exactly the fields the JSON Schema requires", () => {
    const data = schema.properties.data;
    expect(Object.keys(WEBHOOK_EXAMPLE_PAYLOAD).sort()).toEqual([...schema.required].sort());
    expect(Object.keys(WEBHOOK_EXAMPLE_PAYLOAD.data).sort()).toEqual([...data.required].sort());
    for (const attachment of WEBHOOK_EXAMPLE_PAYLOAD.data.attachments) {
      expect(Object.keys(attachment).sort()).toEqual([...data.properties.attachments.items.required].sort());
    }
  });
});
