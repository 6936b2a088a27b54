// The endpoint dialog's schema: the API's rules (endpoints.schemas.ts, endpoint-filter.constants.ts)
// on the form's values, each message an i18n key shown under its field. Whether a `matches` pattern
// compiles is the server's to say (400 endpoint.invalid_filter, shown in the dialog).
import * as z from "zod/mini";
import { ENDPOINT_FORMATS, SIGNING_SCHEMES } from "@/modules/delivery/delivery.constants";
import { webhookSecretSchema } from "@/modules/email-callbacks/email-callbacks.schemas";
import {
  FILTER_HEADER_NAME_MAX_LENGTH,
  FILTER_HEADER_NAME_PATTERN,
  FILTER_MATCHES,
  FILTER_MAX_CONDITIONS,
  FILTER_PATTERN_MAX_LENGTH,
  FILTER_SPAM_SCORE_FIELD,
  FILTER_VALUE_MAX_LENGTH,
} from "../endpoint-filter.constants";
import { ENDPOINT_TIMEOUT_MAX_MS, ENDPOINT_TIMEOUT_MIN_MS } from "../endpoints.constants";
import { endpointHeaderRowsSchema, endpointUrlSchema } from "../endpoints.schemas";
import { FILTER_FORM_FIELDS, type FilterConditionRow, getOperatorsOfField } from "./endpoint-form-values";

const timeoutTextSchema = z.string().check(
  z.refine((typed: string) => {
    if (typed.trim() === "") return true;
    const value = Number(typed.trim());
    return Number.isInteger(value) && value >= ENDPOINT_TIMEOUT_MIN_MS && value <= ENDPOINT_TIMEOUT_MAX_MS;
  }, "endpoints.validation.timeoutInvalid"),
);

/** The first problem of a condition row, on the key it is about. */
function findRowProblem(row: FilterConditionRow): { key: keyof FilterConditionRow; message: string } | null {
  if (row.field === "header") {
    const name = row.headerName.trim();
    if (name === "" || name.length > FILTER_HEADER_NAME_MAX_LENGTH || !FILTER_HEADER_NAME_PATTERN.test(name)) {
      return { key: "headerName", message: "endpoints.validation.filterHeaderNameInvalid" };
    }
  }
  if (row.field === FILTER_SPAM_SCORE_FIELD) {
    const typed = row.value.trim();
    return typed === "" || !Number.isFinite(Number(typed))
      ? { key: "value", message: "endpoints.validation.filterScoreInvalid" }
      : null;
  }
  if (row.value.length === 0) return { key: "value", message: "endpoints.validation.filterValueRequired" };
  if (row.op === "matches" && row.value.length > FILTER_PATTERN_MAX_LENGTH) {
    return { key: "value", message: "endpoints.validation.filterPatternTooLong" };
  }
  if (row.value.length > FILTER_VALUE_MAX_LENGTH) return { key: "value", message: "endpoints.validation.filterValueTooLong" };
  return null;
}

const conditionRowSchema = z.object({
  field: z.enum(FILTER_FORM_FIELDS),
  headerName: z.string(),
  op: z.string(),
  value: z.string(),
});

export const endpointFormSchema = z
  .object({
    url: endpointUrlSchema,
    format: z.enum(ENDPOINT_FORMATS, { error: "endpoints.validation.formatInvalid" }),
    signingScheme: z.enum(SIGNING_SCHEMES, { error: "endpoints.validation.signingSchemeInvalid" }),
    secret: z.string(),
    timeoutMs: timeoutTextSchema,
    isEnabled: z.boolean(),
    headers: endpointHeaderRowsSchema,
    filterMode: z.enum(["none", ...FILTER_MATCHES]),
    conditions: z.array(conditionRowSchema),
  })
  .check(
    z.superRefine((values, context) => {
      // A secret is read only for HMAC: one typed before choosing Ed25519 is not in the way.
      if (values.signingScheme === "hmac") {
        for (const issue of webhookSecretSchema.safeParse(values.secret).error?.issues ?? []) {
          context.addIssue({ code: "custom", path: ["secret"], message: issue.message, input: values.secret });
        }
      }
      if (values.filterMode === "none") return;
      if (values.conditions.length > FILTER_MAX_CONDITIONS) {
        context.addIssue({
          code: "custom",
          path: ["conditions"],
          message: "endpoints.validation.conditionsTooMany",
          input: values,
        });
      }
      values.conditions.forEach((row, index) => {
        if (!(getOperatorsOfField(row.field) as readonly string[]).includes(row.op)) {
          context.addIssue({
            code: "custom",
            path: ["conditions", index, "op"],
            message: "endpoints.validation.filterOperatorInvalid",
            input: row,
          });
        }
        const problem = findRowProblem(row);
        if (problem)
          context.addIssue({ code: "custom", path: ["conditions", index, problem.key], message: problem.message, input: row });
      });
    }),
  );

export type EndpointFormOutput = z.output<typeof endpointFormSchema>;
