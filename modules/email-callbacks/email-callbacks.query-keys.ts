// The query keys of the address list and of an address: what the browser's query hooks
// (email-callbacks.queries.ts) and a page's first render on the server (docs/architecture.md: The
// first render) must agree on, with nothing of React in it.

export const emailCallbackQueryKeys = {
  all: ["email-callbacks"] as const,
  list: () => [...emailCallbackQueryKeys.all, "list"] as const,
  details: () => [...emailCallbackQueryKeys.all, "detail"] as const,
  detail: (emailCallbackId: string) => [...emailCallbackQueryKeys.details(), emailCallbackId] as const,
};
