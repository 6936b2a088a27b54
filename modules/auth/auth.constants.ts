// Constants of authentication shared by the server, the proxy and the client.
export const AUTH_COOKIE_PREFIX = "hookmail";

/** Limits of the registration and reset forms. */
export const AUTH_LIMITS = {
  passwordMinLength: 8,
  passwordMaxLength: 128,
} as const;

/** The social sign-in providers the instance may enable, in the order their buttons show. */
export const SOCIAL_PROVIDERS = ["github", "google"] as const;

/**
 * The connecting client's address, set by our HTTP server from the socket (any value a client
 * sends is replaced), and read by the auth rate limiter.
 */
export const CLIENT_IP_HEADER = "x-hookmail-client-ip";

/**
 * Where every verification link comes back after better-auth checked it, with the link's token: a
 * signed-in visitor (the link has just signed them in) goes on to the dashboard; otherwise the page
 * says that the link has already been used, only when its token is genuine and its address
 * verified, or else that it was invalid or expired (better-auth adds ?error= to a refused one).
 */
export const VERIFY_EMAIL_PATH = "/verify-email";
