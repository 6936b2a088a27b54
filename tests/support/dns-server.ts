// A DNS server on 127.0.0.1 for tests (UDP, dns2): it answers TXT, A, AAAA and MX from a table the
// test fills in, NXDOMAIN for any other name, and never answers the names listed as silent (a
// resolver that times out). Nothing in the tests reaches a real resolver.
import dns2 from "dns2";

const { Packet } = dns2;

export type DnsEntry = { TXT?: string[]; A?: string[]; AAAA?: string[]; MX?: { exchange: string; priority: number }[] };

export type TestDnsServer = {
  /** `127.0.0.1:port`, the form DNS_SERVERS takes. */
  address: string;
  /** Sets (or replaces) the records of a name. */
  set: (name: string, entry: DnsEntry) => void;
  /** Forgets the records of a name: it answers NXDOMAIN again. */
  remove: (name: string) => void;
  /** Names whose queries get no answer at all. */
  silence: (name: string) => void;
  /** Every name asked, in order, with its type (`TXT example.org`). */
  queries: string[];
  close: () => Promise<void>;
};

/** A TXT string longer than 255 bytes goes as several character-strings, as DNS zones carry DKIM keys. */
function splitCharacterStrings(text: string): string[] {
  const chunks: string[] = [];
  for (let index = 0; index < text.length; index += 255) chunks.push(text.slice(index, index + 255));
  return chunks.length > 0 ? chunks : [""];
}

function toAnswers(name: string, type: number, entry: DnsEntry | undefined) {
  const base = { name, class: Packet.CLASS.IN, ttl: 60 };
  if (!entry) return [];
  if (type === Packet.TYPE.TXT) return (entry.TXT ?? []).map((text) => ({ ...base, type, data: splitCharacterStrings(text) }));
  if (type === Packet.TYPE.A) return (entry.A ?? []).map((address) => ({ ...base, type, address }));
  if (type === Packet.TYPE.AAAA) return (entry.AAAA ?? []).map((address) => ({ ...base, type, address }));
  if (type === Packet.TYPE.MX) return (entry.MX ?? []).map(({ exchange, priority }) => ({ ...base, type, exchange, priority }));
  return [];
}

export async function startDnsServer(
  records: Record<string, DnsEntry> = {},
  { port = 0 }: { port?: number } = {},
): Promise<TestDnsServer> {
  const table = new Map(Object.entries(records).map(([name, entry]) => [name.toLowerCase(), entry]));
  const silent = new Set<string>();
  const queries: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const [question] = request.questions;
      if (!question) return;
      const name = question.name.toLowerCase();
      queries.push(`${Packet.TYPE_NAME?.[question.type] ?? question.type} ${name}`);
      if (silent.has(name)) return;
      const response = Packet.createResponseFromRequest(request);
      const answers = toAnswers(question.name, question.type, table.get(name));
      response.answers.push(...(answers as never[]));
      if (!table.has(name)) response.header.rcode = Packet.RCODE?.NXDOMAIN ?? 3;
      send(response);
    },
  });
  await server.listen({ udp: { port, address: "127.0.0.1" } });
  const { port: boundPort } = server.addresses().udp as { port: number };
  return {
    address: `127.0.0.1:${boundPort}`,
    set: (name, entry) => table.set(name.toLowerCase(), entry),
    remove: (name) => table.delete(name.toLowerCase()),
    silence: (name) => silent.add(name.toLowerCase()),
    queries,
    close: () => server.close(),
  };
}
