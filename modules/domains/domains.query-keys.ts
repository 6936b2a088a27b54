// The query keys of the domain list: what the browser's query hooks (domains.queries.ts) and the
// Domains page's first render on the server (docs/architecture.md: The first render) must agree on,
// with nothing of React in it.

export const domainQueryKeys = {
  all: ["domains"] as const,
  list: () => [...domainQueryKeys.all, "list"] as const,
};
