import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { config } from "zod/v4/core";
import { AppError } from "../errors/app-error";
import { parseJsonBody, parseSearchParams } from "./route-handler";

const postJson = (body: unknown) => new Request("http://localhost:3000/api/x", { method: "POST", body: JSON.stringify(body) });

async function fieldsOfRejected(parsing: Promise<unknown>) {
  const error = await parsing.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).fields;
}

describe("a zod/mini schema's own messages (no locale loaded in this process)", () => {
  it("zod has no locale here: nothing in this file builds a classic zod schema", () => {
    expect(config().localeError).toBeUndefined();
  });

  it("in a body are answered in English, as zod's default locale words them", async () => {
    const schema = z.strictObject({ deliveryAlerts: z.optional(z.boolean()), name: z.string().check(z.maxLength(3)) });

    expect(await fieldsOfRejected(parseJsonBody(postJson({ deliveryAlerts: "yes", name: "long", extra: 1 }), schema))).toEqual([
      { path: "deliveryAlerts", code: "invalid_type", message: "Invalid input: expected boolean, received string" },
      { path: "name", code: "too_big", message: "Too big: expected string to have <=3 characters" },
      { path: "", code: "unrecognized_keys", message: 'Unrecognized key: "extra"' },
    ]);
  });

  it("in a query are answered in English too", async () => {
    const schema = z.object({ pageIndex: z.coerce.number().check(z.gte(0)) });

    expect(
      await fieldsOfRejected(
        Promise.resolve().then(() => parseSearchParams(new Request("http://localhost:3000/api/x?pageIndex=-1"), schema)),
      ),
    ).toEqual([{ path: "pageIndex", code: "too_small", message: "Too small: expected number to be >=0" }]);
  });
});
