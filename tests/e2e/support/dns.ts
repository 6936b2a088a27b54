// The default test server's DNS: records a test publishes there are what the app's domain checks
// read (tests/e2e/support/start-test-server.ts, E2E_DNS_PORT); any other name answers NXDOMAIN.
import type { DnsEntry } from "../../support/dns-server";
import { DEFAULT_SERVER } from "./servers";

async function changeDns(method: "PUT" | "DELETE", name: string, entry?: DnsEntry) {
  const response = await fetch(`${DEFAULT_SERVER.sinkUrl}/dns/${encodeURIComponent(name)}`, {
    method,
    body: entry ? JSON.stringify(entry) : undefined,
  });
  if (response.status !== 204) throw new Error(`DNS ${method} ${name} failed: ${response.status} ${await response.text()}`);
}

/** Sets (or replaces) the records of a name on the test DNS server. */
export async function publishDnsRecords(name: string, entry: DnsEntry) {
  await changeDns("PUT", name, entry);
}

/** Forgets the records of a name: it answers NXDOMAIN again. */
export async function removeDnsRecords(name: string) {
  await changeDns("DELETE", name);
}

/** Publishes the two records a domain shows (docs/domains.md: Verification): its TXT token and its MX. */
export async function publishDomainRecords(domain: { records: { type: string; name: string; value: string }[] }) {
  for (const record of domain.records) {
    if (record.type === "TXT") await publishDnsRecords(record.name, { TXT: [record.value] });
    else if (record.type === "MX") await publishDnsRecords(record.name, { MX: [{ exchange: record.value, priority: 10 }] });
  }
}
