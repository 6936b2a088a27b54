// The browser's HTTP client for our API: JSON in and out, cookies sent, errors thrown as ApiError
// with the server's code (data.error.code), GETs retried once on transient statuses, and any 401
// sending the browser to /login once. Every write declares Content-Type: application/json, body or
// not: the server refuses a cookie write of any other type (docs/security.md).
export const RETRYABLE_STATUSES = [408, 409, 425, 429, 500, 502, 503, 504] as const;
const GET_RETRIES = 1;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: { path: string; code: string; message: string }[] = [],
  ) {
    super(message);
    this.name = "ApiError";
  }
}

type ApiRequest = { method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"; body?: unknown; signal?: AbortSignal };

export async function apiFetch<T>(path: string, { method = "GET", body, signal }: ApiRequest = {}): Promise<T> {
  const retries = method === "GET" ? GET_RETRIES : 0;
  for (let attempt = 0; ; attempt += 1) {
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        credentials: "include",
        signal,
        headers: method === "GET" ? undefined : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      if (attempt < retries && !signal?.aborted) continue;
      throw new ApiError(0, "network.unreachable", error instanceof Error ? error.message : "Network error");
    }
    if (attempt < retries && (RETRYABLE_STATUSES as readonly number[]).includes(response.status)) continue;
    return readResponse<T>(response);
  }
}

async function readResponse<T>(response: Response): Promise<T> {
  const data: unknown = await response.json().catch(() => null);
  if (response.ok) return data as T;
  if (response.status === 401) redirectToLogin();
  const error = (data as { error?: { code?: string; message?: string; fields?: ApiError["fields"] } } | null)?.error;
  throw new ApiError(
    response.status,
    error?.code ?? "internal.error",
    error?.message ?? `Request failed with status ${response.status}`,
    error?.fields,
  );
}

export function redirectToLogin() {
  if (typeof window !== "undefined" && window.location.pathname !== "/login") window.location.assign("/login");
}

/** Not found, or not the caller's (the API answers both alike), or an id that cannot exist. */
export function isNotFoundError(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}
