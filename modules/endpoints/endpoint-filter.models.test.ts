// Which filters the API accepts and how it answers the others (docs/webhooks.md: Filters).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { parseJsonBody } from "@/modules/shared/api/route-handler";
import { type AppError, isAppError } from "@/modules/shared/errors/app-error";
import { FILTER_MAX_CONDITIONS, FILTER_PATTERN_MAX_LENGTH } from "./endpoint-filter.constants";
import { parseEndpointFilter } from "./endpoint-filter.models";
import { endpointFilterSchema } from "./endpoint-filter.schemas";

const filterOf = (...conditions: unknown[]) => ({ match: "all", conditions });

function refusalOf(input: unknown): AppError {
  try {
    parseEndpointFilter(input);
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error("The filter was accepted");
}

describe("filters the API accepts", () => {
  it("accepts every text field with every text operator, and spam.score with gt and lt", () => {
    const textFields = ["from", "to", "subject", "text", "header:X-Mailer", "attachment.filename", "attachment.contentType"];
    const operators = ["contains", "equals", "startsWith", "endsWith", "matches"];
    const conditions = [...textFields, "authentication.dmarc"].flatMap((field) =>
      operators.map((op) => ({ field, op, value: "pass" })),
    );
    for (let start = 0; start < conditions.length; start += FILTER_MAX_CONDITIONS) {
      expect(() => parseEndpointFilter(filterOf(...conditions.slice(start, start + FILTER_MAX_CONDITIONS)))).not.toThrow();
    }
    const scores = parseEndpointFilter({
      match: "any",
      conditions: [
        { field: "spam.score", op: "lt", value: 5 },
        { field: "spam.score", op: "gt", value: -1.5 },
      ],
    });
    expect(scores.conditions.map((condition) => condition.value)).toEqual([5, -1.5]);
  });

  it("keeps a header field's name lowercased, and drops keys a condition does not have", () => {
    const filter = parseEndpointFilter(filterOf({ field: "header:List-ID", op: "contains", value: "Dev", extra: 1 }));
    expect(filter).toEqual({ match: "all", conditions: [{ field: "header:list-id", op: "contains", value: "Dev" }] });
  });

  it("accepts RE2 patterns up to 256 characters, classes and anchors included", () => {
    const longest = `^${"[a-z]".repeat(51)}`;
    expect(longest).toHaveLength(FILTER_PATTERN_MAX_LENGTH);
    for (const value of ["^invoice", "\\.(pdf|docx?)$", "order #?\\d{5,10}", "(?i)ticket\\s*#", longest]) {
      expect(() => parseEndpointFilter(filterOf({ field: "subject", op: "matches", value }))).not.toThrow();
    }
  });
});

describe("filters the API refuses with 400 endpoint.invalid_filter, naming the condition", () => {
  it.each([
    [{ field: "body", op: "contains", value: "x" }, 'Condition 1 ("body"): the field must be one of'],
    [{ op: "contains", value: "x" }, "Condition 1: the field is missing"],
    [{ field: 42, op: "contains", value: "x" }, "Condition 1: the field must be one of"],
    [{ field: "header:", op: "contains", value: "x" }, 'Condition 1 ("header:"): "header:" must be followed by a header name'],
    [{ field: "header:X Mailer", op: "contains", value: "x" }, "must be followed by a header name"],
    [{ field: "header:Subject:", op: "contains", value: "x" }, "must be followed by a header name"],
    [{ field: `header:${"x".repeat(65)}`, op: "contains", value: "x" }, "at most 64 characters"],
    [{ field: "subject", op: "gt", value: "x" }, 'the operator for "subject" must be one of "contains"'],
    [{ field: "subject", op: "regex", value: "x" }, 'the operator for "subject" must be one of'],
    [{ field: "spam.score", op: "equals", value: 5 }, 'the operator for "spam.score" must be one of "gt", "lt"'],
    [{ field: "spam.score", op: "gt", value: "5" }, "the value of spam.score must be a number"],
    [{ field: "spam.score", op: "lt" }, "the value of spam.score must be a number"],
    [{ field: "subject", op: "contains", value: "" }, "the value must be a text of at least one character"],
    [{ field: "subject", op: "contains", value: 3 }, "the value must be a text of at least one character"],
    [{ field: "subject", op: "contains", value: "x".repeat(1025) }, "the value is longer than 1024 characters"],
    [{ field: "subject", op: "matches", value: "x".repeat(257) }, "the pattern is longer than 256 characters"],
  ])("%j", (condition, message) => {
    const error = refusalOf(filterOf({ field: "from", op: "contains", value: "@" }, condition));
    expect(error.code).toBe("endpoint.invalid_filter");
    expect(error.httpStatus).toBe(400);
    expect(error.message).toContain(message.replace("Condition 1", "Condition 2"));
  });

  it("names the field of the condition at fault", () => {
    const error = refusalOf(filterOf({ field: "subject", op: "gt", value: "x" }));
    expect(error.fields).toEqual([expect.objectContaining({ path: "conditions.0.op" })]);
  });

  it("refuses a match other than all or any", () => {
    const error = refusalOf({ match: "none", conditions: [{ field: "subject", op: "contains", value: "x" }] });
    expect([error.code, error.message]).toEqual(["endpoint.invalid_filter", 'The filter\'s match must be "all", "any".']);
  });

  it.each([
    ["(invoice", "missing closing )"],
    ["a{2,1}", "invalid repeat count"],
    ["(?<=a)b", "does not compile"],
    ["\\1", "does not compile"],
    ["x**", "does not compile"],
  ])("refuses the pattern %s, which RE2 does not compile, saying why", (value, why) => {
    const error = refusalOf(filterOf({ field: "text", op: "contains", value: "x" }, { field: "text", op: "matches", value }));
    expect(error.code).toBe("endpoint.invalid_filter");
    expect(error.message).toMatch(/^Condition 2 \("text"\): the pattern does not compile \(/);
    expect(error.message).toContain(why);
    expect(error.fields).toEqual([expect.objectContaining({ path: "conditions.1.value", code: "syntax" })]);
  });

  it("refuses a pattern too costly to run: over 128 instructions once compiled", () => {
    const error = refusalOf(filterOf({ field: "text", op: "matches", value: "a[ab]{200}c" }));
    expect(error.code).toBe("endpoint.invalid_filter");
    expect(error.message).toContain("too complex (204 steps once compiled, at most 128");
  });

  it("refuses a plain text of more than about 125 characters as a pattern, pointing at contains", () => {
    const error = refusalOf(filterOf({ field: "subject", op: "matches", value: "a".repeat(200) }));
    expect(error.code).toBe("endpoint.invalid_filter");
    expect(error.message).toContain("use contains for plain text");
  });

  it("refuses patterns that are too costly together: over 512 instructions in one filter", () => {
    const pattern = "a[ab]{100}c"; // 104 instructions, five of them: 520
    const error = refusalOf(filterOf(...Array.from({ length: 5 }, () => ({ field: "text", op: "matches", value: pattern }))));
    expect(error.code).toBe("endpoint.invalid_filter");
    expect(error.message).toBe("The filter's patterns are too complex together (520 steps once compiled, at most 512).");
  });
});

describe("a route's body holding a filter", () => {
  const bodySchema = z.object({ url: z.string(), filter: z.optional(z.nullable(endpointFilterSchema)) });
  const post = (body: unknown) =>
    parseJsonBody(new Request("http://hookmail.test/", { method: "POST", body: JSON.stringify(body) }), bodySchema);

  it("answers 400 endpoint.invalid_filter with the condition's message, whatever else is wrong", async () => {
    const filter = filterOf({ field: "subject", op: "contains", value: "x" }, { field: "size", op: "gt", value: 1 });
    await expect(post({ url: 3, filter })).rejects.toMatchObject({
      code: "endpoint.invalid_filter",
      message: expect.stringMatching(/^Condition 2 \("size"\): the field must be one of/),
      fields: expect.arrayContaining([expect.objectContaining({ path: "filter.conditions.1.field" })]),
    });
  });

  it("gives the filter lowercased header names and typed values", async () => {
    const body = await post({
      url: "https://x.example",
      filter: filterOf({ field: "header:X-Mailer", op: "equals", value: "Bot" }),
    });
    expect(body.filter).toEqual({ match: "all", conditions: [{ field: "header:x-mailer", op: "equals", value: "Bot" }] });
  });
});

describe("filters refused as plain validation errors (400 request.invalid_body)", () => {
  it.each([
    ["no condition", filterOf()],
    ["more than 20 conditions", filterOf(...Array.from({ length: 21 }, () => ({ field: "text", op: "contains", value: "x" })))],
    ["conditions that are no list", { match: "all", conditions: "subject contains x" }],
    ["a filter that is no object", "subject contains x"],
  ])("%s", (_, input) => {
    expect(refusalOf(input).code).toBe("request.invalid_body");
  });
});

describe("the schema shared with the browser", () => {
  it("checks fields, operators and values but leaves patterns to the engine (which stays out of the browser's bundle)", () => {
    expect(endpointFilterSchema.safeParse(filterOf({ field: "text", op: "matches", value: "(unclosed" })).success).toBe(true);
    expect(endpointFilterSchema.safeParse(filterOf({ field: "text", op: "near", value: "x" })).success).toBe(false);
  });
});

describe("the filters docs/webhooks.md shows", () => {
  const docs = fs.readFileSync(path.resolve(import.meta.dirname, "../../docs/webhooks.md"), "utf8");
  const section = docs.slice(docs.indexOf("## Filters"), docs.indexOf("\n## ", docs.indexOf("## Filters") + 1));
  const examples = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map(([, json]) => JSON.parse(json!));

  it("are accepted as they are, and the refusal shown is the one answered", () => {
    const filters = examples.filter((example) => !("error" in example));
    expect(filters.length).toBeGreaterThanOrEqual(6);
    for (const filter of filters) expect(() => parseEndpointFilter(filter), JSON.stringify(filter)).not.toThrow();
    const [shown] = examples.filter((example) => "error" in example);
    const error = refusalOf(
      filterOf({ field: "text", op: "contains", value: "x" }, { field: "text", op: "matches", value: "(invoice" }),
    );
    expect([error.code, error.message]).toEqual([shown.error.code, shown.error.message]);
  });
});
