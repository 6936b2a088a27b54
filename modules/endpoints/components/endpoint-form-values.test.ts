import { describe, expect, it } from "vitest";
import type { ApiEndpoint } from "../endpoints.models";
import { createEndpointSchema, updateEndpointSchema } from "../endpoints.schemas";
import { endpointFormSchema } from "./endpoint-form-schema";
import {
  type EndpointFormValues,
  getEmptyEndpointFormValues,
  getEndpointFormValues,
  toCreateEndpointInput,
  toEndpointFilter,
  toUpdateEndpointInput,
} from "./endpoint-form-values";

const endpoint: ApiEndpoint = {
  id: "ep_1",
  url: "https://hooks.example.com/in",
  format: "json",
  signing: { scheme: "hmac", maskedSecret: "abcd••••" },
  headers: { "X-Api-Key": "k1" },
  timeoutMs: 10_000,
  filter: {
    match: "any",
    conditions: [
      { field: "subject", op: "contains", value: "invoice" },
      { field: "header:x-priority", op: "equals", value: "1" },
      { field: "spam.score", op: "lt", value: 5 },
    ],
  },
  isEnabled: true,
  createdAt: "2026-11-28T10:00:00.000Z",
};

const values = (changes: Partial<EndpointFormValues>): EndpointFormValues => ({ ...getEndpointFormValues(endpoint), ...changes });

describe("the endpoint dialog's values", () => {
  it("a new endpoint left as the dialog opens is JSON, HMAC with a generated secret, no headers, the default timeout, no filter, enabled", () => {
    const input = toCreateEndpointInput({ ...getEmptyEndpointFormValues(), url: " https://hooks.example.com/b " });
    expect(input).toEqual({
      url: "https://hooks.example.com/b",
      format: "json",
      signing: { scheme: "hmac" },
      headers: {},
      timeoutMs: null,
      filter: null,
      isEnabled: true,
    });
    expect(createEndpointSchema.parse(input)).toEqual(input);
  });

  it("a new endpoint sends a secret of the user's own, or asks for Ed25519 without one", () => {
    const base = { ...getEmptyEndpointFormValues(), url: "https://hooks.example.com/b" };
    expect(toCreateEndpointInput({ ...base, secret: "my-own-secret-1234" }).signing).toEqual({
      scheme: "hmac",
      secret: "my-own-secret-1234",
    });
    expect(toCreateEndpointInput({ ...base, signingScheme: "ed25519", secret: "ignored-secret-1234" }).signing).toEqual({
      scheme: "ed25519",
    });
  });

  it("an endpoint's filter becomes rows (a header field's name apart) and the rows give the same filter back", () => {
    const formValues = getEndpointFormValues(endpoint);
    expect(formValues.filterMode).toBe("any");
    expect(formValues.conditions[1]).toEqual({ field: "header", headerName: "x-priority", op: "equals", value: "1" });
    expect(formValues.conditions[2]).toEqual({ field: "spam.score", headerName: "", op: "lt", value: "5" });
    expect(toEndpointFilter(formValues)).toEqual(endpoint.filter);
  });

  it("the filter mode none is no filter, whatever rows are left", () => {
    expect(toEndpointFilter({ ...getEndpointFormValues(endpoint), filterMode: "none" })).toBeNull();
  });

  it("an edit that changes nothing sends nothing", () => {
    expect(toUpdateEndpointInput(endpoint, getEndpointFormValues(endpoint))).toEqual({});
  });

  it("an edit sends only the fields that changed, in the API's shape", () => {
    const changes = toUpdateEndpointInput(
      endpoint,
      values({ isEnabled: false, timeoutMs: "", headers: [], filterMode: "all", secret: "" }),
    );
    expect(changes).toEqual({
      isEnabled: false,
      timeoutMs: null,
      headers: {},
      filter: { ...endpoint.filter, match: "all" },
    });
    expect(updateEndpointSchema.parse(changes)).toEqual(changes);
  });

  it("an edit keeps an HMAC secret unless a new one is typed, and switching to Ed25519 asks for a key pair", () => {
    expect(toUpdateEndpointInput(endpoint, values({ secret: "another-secret-1234" }))).toEqual({
      signing: { scheme: "hmac", secret: "another-secret-1234" },
    });
    expect(toUpdateEndpointInput(endpoint, values({ signingScheme: "ed25519" }))).toEqual({ signing: { scheme: "ed25519" } });
  });

  it("an endpoint that signs with none keeps it: none is no change, HMAC asks for a generated secret", () => {
    const unsigned: ApiEndpoint = { ...endpoint, signing: { scheme: "none" } };
    expect(toUpdateEndpointInput(unsigned, getEndpointFormValues(unsigned))).toEqual({});
    expect(toUpdateEndpointInput(unsigned, { ...getEndpointFormValues(unsigned), signingScheme: "hmac" })).toEqual({
      signing: { scheme: "hmac" },
    });
  });
});

describe("endpointFormSchema", () => {
  const messagesOf = (formValues: EndpointFormValues) => {
    const result = endpointFormSchema.safeParse(formValues);
    return result.success ? [] : result.error.issues.map(({ path, message }) => [path.join("."), message]);
  };

  it("accepts an endpoint's own values", () => {
    expect(messagesOf(getEndpointFormValues(endpoint))).toEqual([]);
  });

  it("a header field needs a header name, a spam score a number and the score's operators, a text an operator of text", () => {
    const conditions = [
      { field: "header" as const, headerName: "", op: "contains", value: "x" },
      { field: "spam.score" as const, headerName: "", op: "contains", value: "high" },
      { field: "subject" as const, headerName: "", op: "gt", value: "" },
    ];
    expect(messagesOf(values({ conditions }))).toEqual([
      ["conditions.0.headerName", "endpoints.validation.filterHeaderNameInvalid"],
      ["conditions.1.op", "endpoints.validation.filterOperatorInvalid"],
      ["conditions.1.value", "endpoints.validation.filterScoreInvalid"],
      ["conditions.2.op", "endpoints.validation.filterOperatorInvalid"],
      ["conditions.2.value", "endpoints.validation.filterValueRequired"],
    ]);
  });

  it("rows of a filter that is off are not checked", () => {
    const conditions = [{ field: "subject" as const, headerName: "", op: "contains", value: "" }];
    expect(messagesOf(values({ filterMode: "none", conditions }))).toEqual([]);
  });

  it("a timeout is empty or a whole number of milliseconds from 1000 to 30000", () => {
    expect(messagesOf(values({ timeoutMs: "" }))).toEqual([]);
    expect(messagesOf(values({ timeoutMs: "30000" }))).toEqual([]);
    expect(messagesOf(values({ timeoutMs: "999" }))).toEqual([["timeoutMs", "endpoints.validation.timeoutInvalid"]]);
    expect(messagesOf(values({ timeoutMs: "1500.5" }))).toEqual([["timeoutMs", "endpoints.validation.timeoutInvalid"]]);
  });
});

describe("endpointFormSchema's secret", () => {
  it("is checked as the address form's for HMAC, and not read for Ed25519", () => {
    const short = { ...getEndpointFormValues(endpoint), secret: "short" };
    expect(endpointFormSchema.safeParse(short).error?.issues.map(({ path }) => path.join("."))).toEqual(["secret"]);
    expect(endpointFormSchema.safeParse({ ...short, signingScheme: "ed25519" }).success).toBe(true);
  });
});
