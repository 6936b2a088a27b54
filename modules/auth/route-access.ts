// Which pages need a session and which are for signed-out visitors only.
export type RouteAccess = "private" | "public-only" | "any";

const PUBLIC_ONLY_PATHS = ["/login", "/register", "/request-password-reset", "/reset-password", "/email-validation-required"];
const PRIVATE_PATH_PREFIXES = ["/email-callbacks", "/api-keys", "/settings", "/webhooks"];

function matchesPath(pathname: string, path: string) {
  return pathname === path || pathname.startsWith(`${path}/`);
}

export function getRouteAccess(pathname: string): RouteAccess {
  if (PUBLIC_ONLY_PATHS.some((path) => matchesPath(pathname, path))) return "public-only";
  if (pathname === "/" || PRIVATE_PATH_PREFIXES.some((path) => matchesPath(pathname, path))) return "private";
  return "any";
}
