import { describe, expect, it } from "vitest";
import {
  createInboundRequest,
  expectAppError,
  INBOUND_SECRET,
  readFixture,
  runInbound,
  testSettings,
} from "../test-support/inbound-test-helpers";

const rawRequest = () =>
  createInboundRequest("raw", { body: readFixture("message.eml"), headers: { authorization: `Bearer ${INBOUND_SECRET}` } });

import { INBOUND_PROVIDER_NAMES } from "./inbound-providers.constants";
import { getInboundProviderOrThrow } from "./inbound-providers.usecases";

describe("receiveFromProvider", () => {
  it("answers 404 inbound.unknown_provider for a route segment that names no provider", async () => {
    for (const name of ["gmail", "RAW", "__proto__", "constructor", ""]) {
      await expectAppError(runInbound(name, createInboundRequest(name, { body: "x" })).result, "inbound.unknown_provider", 404);
    }
  });

  it("answers 503 inbound.not_configured on every route while INBOUND_SECRET is unset", async () => {
    for (const name of INBOUND_PROVIDER_NAMES) {
      const request = createInboundRequest(name, { body: "x", headers: { authorization: `Bearer ${INBOUND_SECRET}` } });
      await expectAppError(
        runInbound(name, request, { settings: testSettings({ secret: undefined }) }).result,
        "inbound.not_configured",
        503,
      );
    }
  });

  it("answers with the number of processings the pipeline created", async () => {
    const { result } = runInbound("raw", rawRequest(), { receive: async () => ({ accepted: 0 }) });
    expect(await result).toEqual({ accepted: 0 });
  });

  it("lets the pipeline's own errors through (a 400 for a message it cannot parse, a 500 for storage)", async () => {
    const failure = new Error("storage failed");
    await expect(runInbound("raw", rawRequest(), { receive: () => Promise.reject(failure) }).result).rejects.toBe(failure);
  });
});

describe("getInboundProviderOrThrow", () => {
  it("knows raw, postmark, mailgun and sendgrid", () => {
    expect(INBOUND_PROVIDER_NAMES.map((name) => getInboundProviderOrThrow(name).name)).toEqual([...INBOUND_PROVIDER_NAMES]);
  });
});
