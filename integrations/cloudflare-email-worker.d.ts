// Types of cloudflare-email-worker.js for its TypeScript test (the worker itself stays plain JS).
export type EmailWorkerMessage = {
  readonly from: string;
  readonly to: string;
  readonly raw: ReadableStream<Uint8Array>;
  setReject(reason: string): void;
};

export type EmailWorkerEnv = { HOOKMAIL_URL?: string; HOOKMAIL_INBOUND_SECRET?: string };

declare const worker: {
  email(message: EmailWorkerMessage, env: EmailWorkerEnv, ctx?: unknown): Promise<void>;
};
export default worker;
