// Constants of authentication shared by the server, the proxy and the client.
export const AUTH_COOKIE_PREFIX = "hookmail";
