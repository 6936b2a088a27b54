// A bare SMTP client over net.Socket for tests that need precise control: which local address a
// session comes from, what it sends byte by byte, and exactly what the server answers and when it closes.
import net from "node:net";

export type RawSmtpClient = {
  /** The next complete reply (every line of a multi-line one), e.g. "250-…\r\n250 OK". */
  readReply: (timeoutMs?: number) => Promise<string>;
  /** Sends a command line and reads its reply. */
  command: (line: string, timeoutMs?: number) => Promise<string>;
  write: (data: string) => void;
  /** Resolves once the server has closed the connection (its FIN or a reset). */
  closed: Promise<void>;
  isClosed: () => boolean;
  destroy: () => void;
};

export async function connectRawSmtpClient({
  host,
  port,
  localAddress,
}: {
  host: string;
  port: number;
  localAddress?: string;
}): Promise<RawSmtpClient> {
  const socket = net.connect({ host, port, ...(localAddress ? { localAddress } : {}) });
  socket.on("error", () => undefined);
  let buffered = "";
  let isClosed = false;
  let waiting: (() => void) | undefined;
  const closed = new Promise<void>((resolve) => {
    const onClose = () => {
      isClosed = true;
      waiting?.();
      resolve();
    };
    socket.once("end", onClose);
    socket.once("close", onClose);
  });
  socket.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    waiting?.();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });

  const takeReply = (): string | undefined => {
    const lines = buffered.split("\r\n");
    for (let index = 0; index < lines.length - 1; index += 1) {
      if (/^\d{3} /.test(lines[index] ?? "") || /^\d{3}$/.test(lines[index] ?? "")) {
        const reply = lines.slice(0, index + 1).join("\r\n");
        buffered = lines.slice(index + 1).join("\r\n");
        return reply;
      }
    }
    return undefined;
  };

  const readReply = (timeoutMs = 5_000) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting = undefined;
        reject(new Error(`no SMTP reply within ${timeoutMs} ms (received so far: ${JSON.stringify(buffered)})`));
      }, timeoutMs);
      const check = () => {
        const reply = takeReply();
        if (reply !== undefined) {
          clearTimeout(timer);
          waiting = undefined;
          return resolve(reply);
        }
        if (isClosed) {
          clearTimeout(timer);
          waiting = undefined;
          reject(new Error(`connection closed without a reply (received: ${JSON.stringify(buffered)})`));
        }
      };
      waiting = check;
      check();
    });

  return {
    readReply,
    command: (line, timeoutMs) => {
      socket.write(`${line}\r\n`);
      return readReply(timeoutMs);
    },
    write: (data) => {
      if (!socket.destroyed) socket.write(data);
    },
    closed,
    isClosed: () => isClosed,
    destroy: () => socket.destroy(),
  };
}
