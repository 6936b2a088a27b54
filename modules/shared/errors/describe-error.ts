// The words of a thrown value, for text that is not a log line (a CLI's output, a stored reason):
// a log line takes the value itself as its `err` field (docs/architecture.md: Logs).

/** An Error's message; anything else thrown, as text. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
