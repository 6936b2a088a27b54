// The address and endpoint calls as integration tests make them: through the route handlers of a
// route test app, as a user (session headers or an API key's).
import * as endpointItem from "@/app/api/email-callbacks/[emailCallbackId]/endpoints/[endpointId]/route";
import * as endpointCollection from "@/app/api/email-callbacks/[emailCallbackId]/endpoints/route";
import * as callbackItem from "@/app/api/email-callbacks/[emailCallbackId]/route";
import * as callbackCollection from "@/app/api/email-callbacks/route";
import type { RouteTestApp } from "./route-test-app";

type Headers = Record<string, string>;

export function createEndpointCalls(app: () => RouteTestApp) {
  const endpointsPath = (emailCallbackId: string) => `/api/email-callbacks/${emailCallbackId}/endpoints`;
  return {
    /** Creates an address (webhook https://hooks.example.com/first unless told), answering its id. */
    async createAddress(headers: Headers, overrides: Record<string, unknown> = {}): Promise<string> {
      const response = await app().call(callbackCollection.POST, {
        path: "/api/email-callbacks",
        method: "POST",
        headers,
        body: {
          domain: "hookmail.test",
          username: `ep-${Math.random().toString(36).slice(2, 10)}`,
          webhookUrl: "https://hooks.example.com/first",
          webhookSecret: "first-secret-0123456789",
          allowedOrigins: [],
          ...overrides,
        },
      });
      if (response.status !== 201) throw new Error(`creating an address failed with ${response.status}`);
      return response.body?.emailCallback.id as string;
    },
    getAddress: (emailCallbackId: string, headers: Headers) =>
      app().call(callbackItem.GET, { path: `/api/email-callbacks/${emailCallbackId}`, headers, params: { emailCallbackId } }),
    updateAddress: (emailCallbackId: string, body: unknown, headers: Headers) =>
      app().call(callbackItem.PUT, {
        path: `/api/email-callbacks/${emailCallbackId}`,
        method: "PUT",
        body,
        headers,
        params: { emailCallbackId },
      }),
    deleteAddress: (emailCallbackId: string, headers: Headers) =>
      app().call(callbackItem.DELETE, {
        path: `/api/email-callbacks/${emailCallbackId}`,
        method: "DELETE",
        headers,
        params: { emailCallbackId },
      }),
    listEndpoints: (emailCallbackId: string, headers: Headers) =>
      app().call(endpointCollection.GET, { path: endpointsPath(emailCallbackId), headers, params: { emailCallbackId } }),
    addEndpoint: (emailCallbackId: string, body: unknown, headers: Headers) =>
      app().call(endpointCollection.POST, {
        path: endpointsPath(emailCallbackId),
        method: "POST",
        body,
        headers,
        params: { emailCallbackId },
      }),
    updateEndpoint: (emailCallbackId: string, endpointId: string, body: unknown, headers: Headers) =>
      app().call(endpointItem.PUT, {
        path: `${endpointsPath(emailCallbackId)}/${endpointId}`,
        method: "PUT",
        body,
        headers,
        params: { emailCallbackId, endpointId },
      }),
    deleteEndpoint: (emailCallbackId: string, endpointId: string, headers: Headers) =>
      app().call(endpointItem.DELETE, {
        path: `${endpointsPath(emailCallbackId)}/${endpointId}`,
        method: "DELETE",
        headers,
        params: { emailCallbackId, endpointId },
      }),
  };
}
