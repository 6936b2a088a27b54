// The query key of an address's endpoints: what the browser's hooks (endpoints.queries.ts) and a
// page's first render on the server (docs/architecture.md: The first render) agree on.

export const endpointQueryKeys = {
  all: ["endpoints"] as const,
  list: (emailCallbackId: string) => [...endpointQueryKeys.all, emailCallbackId] as const,
};
