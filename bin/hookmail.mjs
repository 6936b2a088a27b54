#!/usr/bin/env node
// The `hookmail` command (README: The hookmail command): forwards an address's webhooks to a local
// server (`listen`), sends a message through an address (`send`), prints its processing events
// (`tail`); `listen --endpoint` forwards one endpoint's requests instead. It talks to a Hookmail server over its API with an API key, and imports nothing of the
// app: Node built-ins and fetch only.
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { describeFetchError, FatalStreamError, followEventStream } from "./event-source.mjs";
import { describeRawMessage, describeWebhookBody } from "./mail-summary.mjs";

const DEFAULT_URL = "http://localhost:3000";
const FORWARD_TIMEOUT_MS = 30_000;
const EXIT = { OK: 0, FAILED: 1, USAGE: 2 };

const COMMON_OPTIONS = {
  url: { type: "string" },
  "api-key": { type: "string" },
  address: { type: "string" },
  help: { type: "boolean", short: "h" },
};

const COMMON_HELP = `Options:
  --address <address or id>  the address (name@domain) or its id
  --url <url>                the Hookmail server (HOOKMAIL_URL; default ${DEFAULT_URL})
  --api-key <key>            an API key of your account (HOOKMAIL_API_KEY)
  -h, --help                 this help`;

const COMMANDS = {
  listen: {
    options: { "forward-to": { type: "string" }, endpoint: { type: "string" } },
    usage: "hookmail listen --address <address or id> [--endpoint <endpoint id>] --forward-to <local URL>",
    summary:
      "Forwards each mail's webhook to a local URL as the server sends it: the exact body, signed with the\naddress's secret. With --endpoint, that endpoint's requests instead, for the mails it takes: its body\n(the message as received for a raw endpoint), its headers, signed with its own scheme. Prints one line\nper mail; reconnects after a network loss without missing mail.",
    extraHelp:
      "  --forward-to <url>         where to POST each webhook, e.g. http://localhost:8080/hook\n" +
      "  --endpoint <endpoint id>   forward this endpoint's requests (ept_…; listed in the address's settings)",
    required: ["address", "forward-to"],
    run: listen,
  },
  send: {
    options: {},
    usage: "hookmail send <file.eml> --address <address or id>",
    summary: "Sends a message (an .eml file) through the address, as if it had arrived by SMTP.",
    extraHelp: "",
    required: ["address"],
    positional: "file",
    run: send,
  },
  tail: {
    options: {},
    usage: "hookmail tail --address <address or id>",
    summary: "Prints the address's processing events as mail arrives and as deliveries end.",
    extraHelp: "",
    required: ["address"],
    run: tail,
  },
};

const MAIN_HELP = `Usage: hookmail <command> [options]

Commands:
  listen   forward each mail's webhook to a local server
  send     send a message through an address
  tail     print an address's processing events

Run \`hookmail <command> --help\` for a command's options.
Environment: HOOKMAIL_URL (default ${DEFAULT_URL}), HOOKMAIL_API_KEY.`;

class CliError extends Error {
  constructor(message, exitCode = EXIT.FAILED) {
    super(message);
    this.exitCode = exitCode;
  }
}

const commandHelp = (command) =>
  `Usage: ${command.usage}\n\n${command.summary}\n\n${COMMON_HELP}${command.extraHelp ? `\n${command.extraHelp}` : ""}`;

async function main(argv) {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${MAIN_HELP}\n`);
    return name ? EXIT.OK : EXIT.USAGE;
  }
  const command = COMMANDS[name];
  if (!command) throw new CliError(`unknown command "${name}" (run hookmail --help)`, EXIT.USAGE);
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: { ...COMMON_OPTIONS, ...command.options }, allowPositionals: true });
  } catch (error) {
    throw new CliError(`${error.message} (run hookmail ${name} --help)`, EXIT.USAGE);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${commandHelp(command)}\n`);
    return EXIT.OK;
  }
  const missing = command.required.filter((option) => !values[option]);
  if (command.positional && positionals.length !== 1) missing.unshift(`<${command.positional}>`);
  else if (!command.positional && positionals.length > 0)
    throw new CliError(`unexpected argument "${positionals[0]}"`, EXIT.USAGE);
  if (missing.length > 0) {
    throw new CliError(
      `missing ${missing.map((item) => (item.startsWith("<") ? item : `--${item}`)).join(", ")} (run hookmail ${name} --help)`,
      EXIT.USAGE,
    );
  }
  const api = createApi({
    baseUrl: values.url ?? process.env.HOOKMAIL_URL ?? DEFAULT_URL,
    apiKey: values["api-key"] ?? process.env.HOOKMAIL_API_KEY,
  });
  return command.run({ api, values, positionals });
}

function createApi({ baseUrl, apiKey }) {
  let base;
  try {
    base = new URL(baseUrl);
  } catch {
    throw new CliError(`the server URL "${baseUrl}" is not a URL`, EXIT.USAGE);
  }
  if (!apiKey)
    throw new CliError("no API key: set HOOKMAIL_API_KEY or pass --api-key (create one in Settings > API keys)", EXIT.USAGE);
  const url = (path) => new URL(path, base).toString();
  const headers = { Authorization: `Bearer ${apiKey}` };
  return {
    url,
    headers,
    async request(path, init = {}) {
      let response;
      try {
        response = await fetch(url(path), { ...init, headers: { ...headers, ...init.headers } });
      } catch (error) {
        throw new CliError(`cannot reach ${base.origin} (${describeFetchError(error)}): check HOOKMAIL_URL or --url`);
      }
      await ensureOk(response);
      return response.json();
    },
  };
}

/** Turns a refused call into one line: a bad key, an unknown address, or the server's own message. */
async function ensureOk(response, { fatal = (message) => new CliError(message) } = {}) {
  if (response.ok) return;
  const text = await response.text().catch(() => "");
  let error;
  try {
    error = JSON.parse(text).error;
  } catch {
    error = undefined;
  }
  if (response.status === 401) throw fatal("the API key was refused (401): check HOOKMAIL_API_KEY or --api-key");
  if (response.status === 404 && error?.code === "endpoint.not_found")
    throw fatal("unknown endpoint: the address has no endpoint of that id");
  if (response.status === 404) throw fatal("unknown address: no address of your account has that id");
  const retry = response.headers.get("retry-after");
  const detail = error?.message ?? (text.slice(0, 200) || response.statusText);
  throw fatal(`the server answered ${response.status}: ${detail}${retry ? ` (retry in ${retry} s)` : ""}`);
}

/** The address of the account that `--address` names, by its address or its id. */
async function resolveAddress(api, wanted) {
  const { emailCallbacks } = await api.request("/api/email-callbacks");
  const needle = wanted.trim().toLowerCase();
  const found = emailCallbacks.find((callback) => callback.id === wanted.trim() || callback.address.toLowerCase() === needle);
  if (!found) throw new CliError(`unknown address "${wanted}": no address of your account has that address or id`);
  return found;
}

/** The endpoint of the address that `--endpoint` names, by its id. */
async function resolveEndpoint(api, emailCallback, wanted) {
  const { endpoints } = await api.request(`/api/email-callbacks/${encodeURIComponent(emailCallback.id)}/endpoints`);
  const found = endpoints.find((endpoint) => endpoint.id === wanted.trim());
  if (!found) {
    throw new CliError(
      `unknown endpoint "${wanted}": ${emailCallback.address} has no endpoint of that id (its endpoints: ${endpoints.map((endpoint) => endpoint.id).join(", ")})`,
    );
  }
  return found;
}

const clock = () => new Date().toISOString().slice(11, 19);
const quote = (text) => JSON.stringify(text ?? "");

/** Follows the address's stream until Ctrl-C; connection changes are told on stderr. */
async function follow(api, emailCallback, query, onMessage, label = emailCallback.address) {
  const stop = new AbortController();
  process.once("SIGINT", () => stop.abort());
  process.once("SIGTERM", () => stop.abort());
  let hasConnected = false;
  await followEventStream({
    url: api.url(`/api/email-callbacks/${encodeURIComponent(emailCallback.id)}/events${query}`),
    headers: api.headers,
    signal: stop.signal,
    onMessage,
    checkResponse: (response) =>
      response.status === 401 || response.status === 404
        ? ensureOk(response, { fatal: (message) => new FatalStreamError(message) })
        : undefined,
    onConnect: () => {
      process.stderr.write(`${hasConnected ? "Reconnected" : "Ready"}: listening to ${label} (Ctrl-C to stop)\n`);
      hasConnected = true;
    },
    onDisconnect: (reason, delay) =>
      process.stderr.write(`Connection lost (${reason}); reconnecting in ${Math.round(delay / 100) / 10} s\n`),
  });
  return EXIT.OK;
}

async function listen({ api, values }) {
  let target;
  try {
    target = new URL(values["forward-to"]);
  } catch {
    throw new CliError(`--forward-to "${values["forward-to"]}" is not a URL`, EXIT.USAGE);
  }
  const emailCallback = await resolveAddress(api, values.address);
  const endpoint = values.endpoint ? await resolveEndpoint(api, emailCallback, values.endpoint) : null;
  const query = endpoint ? `?include=webhook&endpoint=${encodeURIComponent(endpoint.id)}` : "?include=webhook";
  const label = endpoint ? `${emailCallback.address}, endpoint ${endpoint.id} (${endpoint.format})` : emailCallback.address;
  const forwarded = new Set();
  const onMessage = async (message) => {
    if (message.event !== "email.received") return;
    const { headers, body, bodyEncoding } = JSON.parse(message.data);
    // A stream that resumed may send a mail again: each is forwarded once (receivers dedupe by webhook-id too).
    if (forwarded.has(headers["webhook-id"])) return;
    forwarded.add(headers["webhook-id"]);
    if (forwarded.size > 10_000) forwarded.delete(forwarded.values().next().value);
    // A raw endpoint's message comes in base64: its exact bytes are forwarded.
    const bytes = bodyEncoding === "base64" ? Buffer.from(body, "base64") : body;
    const { from, subject } = bodyEncoding === "base64" ? describeRawMessage(bytes) : describeWebhookBody(body);
    // The headers the endpoint is sent (its custom ones included), never printed: they may hold credentials.
    const requestHeaders = new Headers(headers);
    if (!requestHeaders.has("content-type")) requestHeaders.set("content-type", "application/json");
    requestHeaders.set("user-agent", "Hookmail-CLI/1");
    let answer;
    try {
      const response = await fetch(target, {
        method: "POST",
        headers: requestHeaders,
        body: bytes,
        redirect: "manual",
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      await response.arrayBuffer().catch(() => undefined);
      answer = String(response.status);
    } catch (error) {
      answer = `failed (${describeFetchError(error)})`;
    }
    process.stdout.write(`${clock()}  ${from}  ${quote(subject)}  -> ${answer}\n`);
  };
  return follow(api, emailCallback, query, onMessage, label);
}

async function tail({ api, values }) {
  const emailCallback = await resolveAddress(api, values.address);
  return follow(api, emailCallback, "", async (message) => {
    if (message.event !== "processing") return;
    const event = JSON.parse(message.data);
    const code = event.webhookResponseStatusCode === null ? "" : ` ${event.webhookResponseStatusCode}`;
    const error = event.error ? ` (${event.error})` : "";
    process.stdout.write(
      `${clock()}  ${event.status}${code}${error}  ${event.fromAddress}  ${quote(event.subject)}  ${event.id}\n`,
    );
  });
}

async function send({ api, values, positionals }) {
  const [file] = positionals;
  let raw;
  try {
    raw = await readFile(file);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${error.code ?? error.message}`);
  }
  const emailCallback = await resolveAddress(api, values.address);
  const { accepted } = await api.request(`/api/email-callbacks/${encodeURIComponent(emailCallback.id)}/test-mail`, {
    method: "POST",
    headers: { "Content-Type": "message/rfc822" },
    body: raw,
  });
  process.stdout.write(
    accepted > 0
      ? `Sent ${file} to ${emailCallback.address}\n`
      : `Not recorded: ${emailCallback.address} already received this message (same Message-ID)\n`,
  );
  return EXIT.OK;
}

let exitCode;
try {
  exitCode = await main(process.argv.slice(2));
} catch (error) {
  const known = error instanceof CliError || error instanceof FatalStreamError;
  process.stderr.write(`hookmail: ${known ? error.message : (error?.stack ?? String(error))}\n`);
  exitCode = error instanceof CliError ? error.exitCode : EXIT.FAILED;
}
// Idle keep-alive connections are not waited for.
process.exit(exitCode);
