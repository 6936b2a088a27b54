// Error factories of GET /api/metrics.
import { AppError } from "@/modules/shared/errors/app-error";

/** 401: no bearer token, or not METRICS_TOKEN. */
export const createMetricsUnauthorizedError = () =>
  new AppError({ code: "auth.unauthorized", message: "Send the metrics token: Authorization: Bearer $METRICS_TOKEN." });
