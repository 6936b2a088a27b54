// A local stand-in for the Stripe API, for integration and browser tests: the real `stripe` SDK
// is pointed at it with STRIPE_API_URL. It records every request and answers the endpoints
// Hookmail uses with Stripe-shaped objects; tests drive the state (complete a Checkout Session,
// change a subscription's status) and can build and sign the matching webhook events.
// It also serves the page a Checkout Session's `url` opens ("Fake Stripe Checkout"), whose Pay
// button completes the session, optionally delivers the signed webhook events, and redirects to
// the session's success URL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export type RecordedStripeRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown>;
};

type StripeObject = Record<string, unknown> & { id: string };

export type FakeCheckoutSession = StripeObject & {
  object: "checkout.session";
  url: string;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid" | "no_payment_required";
  customer: string | null;
  client_reference_id: string | null;
  subscription: string | null;
  success_url: string | null;
  cancel_url: string | null;
  line_items_price: string | null;
};

export type FakeSubscription = StripeObject & {
  object: "subscription";
  customer: string;
  status: string;
  items: {
    object: "list";
    data: { id: string; object: "subscription_item"; price: { id: string; object: "price" }; quantity: number }[];
  };
};

export type FakeStripeEvent = { id: string; object: "event"; type: string; created: number; data: { object: StripeObject } };

export type StartFakeStripeOptions = {
  port?: number;
  /** The price of subscriptions created without a Checkout Session (setSubscriptionStatus). */
  defaultPriceId?: string;
  /** When given, completing a session through the fake checkout page POSTs the signed events here. */
  webhook?: { url: string; secret: string };
};

export async function startFakeStripe({ port = 0, defaultPriceId = "price_pro_test", webhook }: StartFakeStripeOptions = {}) {
  const requests: RecordedStripeRequest[] = [];
  const customers = new Map<string, StripeObject>();
  const sessions = new Map<string, FakeCheckoutSession>();
  const subscriptions = new Map<string, FakeSubscription>();
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}_test_${(++counter).toString().padStart(6, "0")}`;
  const now = () => Math.floor(Date.now() / 1000);
  let baseUrl = "";

  function createSubscription(customer: string, priceId: string, status = "active"): FakeSubscription {
    const subscription: FakeSubscription = {
      id: nextId("sub"),
      object: "subscription",
      customer,
      status,
      created: now(),
      metadata: {},
      items: {
        object: "list",
        data: [{ id: nextId("si"), object: "subscription_item", price: { id: priceId, object: "price" }, quantity: 1 }],
      },
    };
    subscriptions.set(subscription.id, subscription);
    return subscription;
  }

  function buildEvent(type: string, object: StripeObject): FakeStripeEvent {
    return { id: nextId("evt"), object: "event", type, created: now(), data: { object: structuredClone(object) } };
  }

  /** The event as a raw body and its Stripe-Signature header, signed with the given webhook secret. */
  function signEvent(event: FakeStripeEvent, secret: string): { payload: string; signature: string } {
    const payload = JSON.stringify(event);
    return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
  }

  /** Pays a session: it becomes complete and paid, and its customer gets an active subscription. */
  function completeSession(sessionId: string) {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`fake Stripe: no checkout session ${sessionId}`);
    if (!session.customer) session.customer = nextId("cus");
    const subscription = createSubscription(session.customer, session.line_items_price ?? defaultPriceId);
    Object.assign(session, { status: "complete", payment_status: "paid", subscription: subscription.id });
    const events = [buildEvent("customer.subscription.created", subscription), buildEvent("checkout.session.completed", session)];
    return { session, subscription, events };
  }

  /** Sets the status of every subscription of the customer (creating one when they have none). */
  function setSubscriptionStatus(customer: string, status: string) {
    const owned = [...subscriptions.values()].filter((subscription) => subscription.customer === customer);
    if (owned.length === 0) owned.push(createSubscription(customer, defaultPriceId, status));
    for (const subscription of owned) subscription.status = status;
    const type = status === "canceled" ? "customer.subscription.deleted" : "customer.subscription.updated";
    return { subscriptions: owned, events: owned.map((subscription) => buildEvent(type, subscription)) };
  }

  async function deliverEvents(events: FakeStripeEvent[]) {
    if (!webhook) return;
    for (const event of events) {
      const { payload, signature } = signEvent(event, webhook.secret);
      await fetch(webhook.url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
        body: payload,
      });
    }
  }

  function routeApi(method: string, path: string, query: Record<string, string>, body: Record<string, any>) {
    if (method === "POST" && path === "/v1/customers") {
      const customer: StripeObject = {
        id: nextId("cus"),
        object: "customer",
        email: body.email ?? null,
        name: body.name ?? null,
        metadata: body.metadata ?? {},
        created: now(),
      };
      customers.set(customer.id, customer);
      return { status: 200, json: customer };
    }
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const id = nextId("cs");
      const session: FakeCheckoutSession = {
        id,
        object: "checkout.session",
        url: `${baseUrl}/checkout/${id}`,
        mode: body.mode ?? "payment",
        status: "open",
        payment_status: "unpaid",
        customer: body.customer ?? null,
        client_reference_id: body.client_reference_id ?? null,
        subscription: null,
        success_url: body.success_url ?? null,
        cancel_url: body.cancel_url ?? null,
        metadata: body.metadata ?? {},
        line_items_price: body.line_items?.[0]?.price ?? null,
        created: now(),
      };
      sessions.set(id, session);
      return { status: 200, json: session };
    }
    const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === "GET" && sessionMatch) {
      const session = sessions.get(decodeURIComponent(sessionMatch[1]!));
      return session ? { status: 200, json: session } : notFound(`No such checkout.session: '${sessionMatch[1]}'`);
    }
    if (method === "POST" && path === "/v1/billing_portal/sessions") {
      if (!body.customer || !customers.has(body.customer)) return notFound(`No such customer: '${body.customer}'`);
      const id = nextId("bps");
      return {
        status: 200,
        json: {
          id,
          object: "billing_portal.session",
          url: `${baseUrl}/portal/${id}`,
          customer: body.customer,
          return_url: body.return_url ?? null,
        },
      };
    }
    if (method === "GET" && path === "/v1/subscriptions") {
      const data = [...subscriptions.values()].filter(
        (subscription) =>
          (!query.customer || subscription.customer === query.customer) &&
          (query.status === "all" || (query.status ? subscription.status === query.status : subscription.status !== "canceled")),
      );
      return { status: 200, json: { object: "list", data, has_more: false, url: "/v1/subscriptions" } };
    }
    return notFound(`Unrecognized request URL (${method}: ${path}).`);
  }

  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://fake-stripe");
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString("utf8");
    const method = request.method ?? "GET";
    const query = Object.fromEntries(url.searchParams);

    const pageMatch = /^\/checkout\/([^/]+)(\/pay)?$/.exec(url.pathname);
    if (pageMatch) {
      const session = sessions.get(decodeURIComponent(pageMatch[1]!));
      if (!session) return sendHtml(response, 404, "<h1>Unknown checkout session</h1>");
      if (method === "POST" && pageMatch[2]) {
        const { events } = completeSession(session.id);
        await deliverEvents(events);
        const location = (session.success_url ?? baseUrl).replace("{CHECKOUT_SESSION_ID}", session.id);
        response.writeHead(303, { Location: location });
        return response.end();
      }
      return sendHtml(response, 200, renderCheckoutPage(session));
    }
    if (url.pathname.startsWith("/portal/")) return sendHtml(response, 200, "<h1>Fake Stripe Billing Portal</h1>");

    const body = parseStripeForm(rawBody);
    requests.push({ method, path: url.pathname, query, body });
    const { status, json } = routeApi(method, url.pathname, query, body);
    response.writeHead(status, { "Content-Type": "application/json", "Request-Id": nextId("req") });
    response.end(JSON.stringify(json));
  });

  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    requests,
    customers,
    sessions,
    subscriptions,
    completeSession,
    setSubscriptionStatus,
    buildEvent,
    signEvent,
    deliverEvents,
    /** The recorded requests to one method and path, such as `POST /v1/customers`. */
    requestsTo: (methodAndPath: string) => requests.filter((request) => `${request.method} ${request.path}` === methodAndPath),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

function notFound(message: string) {
  return {
    status: 404,
    json: { error: { type: "invalid_request_error", code: "resource_missing", message } },
  };
}

function sendHtml(response: http.ServerResponse, status: number, html: string) {
  response.writeHead(status, { "Content-Type": "text/html; charset=utf-8" });
  response.end(`<!doctype html><html><head><title>Fake Stripe Checkout</title></head><body>${html}</body></html>`);
}

function renderCheckoutPage(session: FakeCheckoutSession) {
  const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
  return [
    "<h1>Fake Stripe Checkout</h1>",
    `<p>Session <code>${escapeHtml(session.id)}</code> · status ${escapeHtml(session.status)}</p>`,
    `<form method="post" action="/checkout/${encodeURIComponent(session.id)}/pay"><button type="submit">Pay</button></form>`,
    session.cancel_url ? `<a href="${escapeHtml(session.cancel_url)}">Cancel</a>` : "",
  ].join("\n");
}

/** Stripe's form encoding (`metadata[userId]=…`, `line_items[0][price]=…`) back into objects and arrays. */
export function parseStripeForm(raw: string): Record<string, any> {
  const root: Record<string, any> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const parts = key.replace(/\]/g, "").split("[");
    let node: Record<string, any> = root;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) node[part] = value;
      else node = node[part] ??= {};
    });
  }
  return toArrays(root) as Record<string, any>;
}

function toArrays(value: unknown): unknown {
  if (!value || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).map(([key, child]) => [key, toArrays(child)] as const);
  const isList = entries.length > 0 && entries.every(([key], index) => key === String(index));
  return isList ? entries.map(([, child]) => child) : Object.fromEntries(entries);
}
