// What one SMTP client may hold (docs/security.md): concurrent sessions in all and from one
// address (an IPv6 client by its /64, which one subscriber usually holds whole), a session's
// length measured from its start (bytes trickled in do not extend it), and unknown recipients per
// session. The counts live in this process: each smtp process enforces them for its own listener.
import net from "node:net";

export type SmtpClientLimitsConfig = {
  maxClients: number;
  maxClientsPerIp: number;
  maxUnknownRecipients: number;
  maxSessionMs: number;
};

export type SmtpSessionRefusal = { reason: string; responseCode: 421; message: string };

type SessionState = {
  addressGroup: string;
  unknownRecipients: number;
  timer: NodeJS.Timeout;
  isReplyPending: boolean;
  hasExpired: boolean;
};

/**
 * The key a per-address limit counts against: an IPv4 address itself (also written as
 * IPv4-mapped IPv6, `::ffff:a.b.c.d`), the /64 of an IPv6 address (`2001:db8:0:1::/64`).
 */
export function getClientAddressGroup(address: string): string {
  const bare = address.trim().toLowerCase().replace(/%.*$/, "");
  if (net.isIPv4(bare)) return bare;
  if (!net.isIPv6(bare)) return bare;
  const groups = expandIPv6(bare);
  const isIPv4Mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (isIPv4Mapped) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function expandIPv6(address: string): number[] {
  const toGroups = (part: string) =>
    part === ""
      ? []
      : part.split(":").flatMap((group) => {
          if (!group.includes(".")) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split(".").map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = "", tail] = address.split("::");
  const headGroups = toGroups(head);
  if (tail === undefined) return headGroups;
  const tailGroups = toGroups(tail);
  return [...headGroups, ...Array<number>(8 - headGroups.length - tailGroups.length).fill(0), ...tailGroups];
}

/**
 * Counts the sessions of one listener. `endSession` must be called once for every session that
 * `admitSession` admitted, however it ended. `onSessionExpired` is called when a session reaches
 * `maxSessionMs`; while the listener owes the client its reply to a message it has received in
 * full, that call waits until `replySent` (the client is not told to retry a mail that is being stored).
 */
export function createSmtpClientLimits({
  limits,
  onSessionExpired,
}: {
  limits: SmtpClientLimitsConfig;
  onSessionExpired: (sessionId: string) => void;
}) {
  const sessions = new Map<string, SessionState>();
  const sessionsByAddressGroup = new Map<string, number>();

  const expire = (sessionId: string) => {
    const state = sessions.get(sessionId);
    if (!state) return;
    if (state.isReplyPending) {
      state.hasExpired = true;
      return;
    }
    onSessionExpired(sessionId);
  };

  return {
    /** Takes a slot for a new session, or says which limit refuses it. */
    admitSession(sessionId: string, address: string): SmtpSessionRefusal | null {
      const addressGroup = getClientAddressGroup(address);
      if (sessions.size >= limits.maxClients) {
        return {
          reason: `${limits.maxClients} sessions open in all (SMTP_MAX_CLIENTS)`,
          responseCode: 421,
          message: "4.3.2 Too many connections, try again later",
        };
      }
      const fromAddressGroup = sessionsByAddressGroup.get(addressGroup) ?? 0;
      if (fromAddressGroup >= limits.maxClientsPerIp) {
        return {
          reason: `${limits.maxClientsPerIp} sessions already open from ${addressGroup} (SMTP_MAX_CLIENTS_PER_IP)`,
          responseCode: 421,
          message: "4.7.0 Too many connections from your address, try again later",
        };
      }
      const timer = setTimeout(() => expire(sessionId), limits.maxSessionMs);
      timer.unref();
      sessions.set(sessionId, { addressGroup, unknownRecipients: 0, timer, isReplyPending: false, hasExpired: false });
      sessionsByAddressGroup.set(addressGroup, fromAddressGroup + 1);
      return null;
    },

    endSession(sessionId: string) {
      const state = sessions.get(sessionId);
      if (!state) return;
      clearTimeout(state.timer);
      sessions.delete(sessionId);
      const remaining = (sessionsByAddressGroup.get(state.addressGroup) ?? 1) - 1;
      if (remaining > 0) sessionsByAddressGroup.set(state.addressGroup, remaining);
      else sessionsByAddressGroup.delete(state.addressGroup);
    },

    /** Counts an unknown recipient; true once the session has had more than the limit allows. */
    recordUnknownRecipient(sessionId: string): boolean {
      const state = sessions.get(sessionId);
      if (!state) return false;
      state.unknownRecipients += 1;
      return state.unknownRecipients > limits.maxUnknownRecipients;
    },

    /** The message is in: the session's deadline waits for the reply to it. */
    holdForReply(sessionId: string) {
      const state = sessions.get(sessionId);
      if (state) state.isReplyPending = true;
    },

    replySent(sessionId: string) {
      const state = sessions.get(sessionId);
      if (!state) return;
      state.isReplyPending = false;
      if (state.hasExpired) onSessionExpired(sessionId);
    },

    stop() {
      for (const state of sessions.values()) clearTimeout(state.timer);
      sessions.clear();
      sessionsByAddressGroup.clear();
    },
  };
}

export type SmtpClientLimits = ReturnType<typeof createSmtpClientLimits>;
