// Types of event-source.mjs for the TypeScript tests that import it.
export type StreamMessage = { id: string | undefined; event: string; data: string };

export class FatalStreamError extends Error {}

export function createEventStreamParser(options?: { onRetry?: (ms: number) => void }): {
  push: (text: string) => StreamMessage[];
};

export function followEventStream(options: {
  url: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  onMessage: (message: StreamMessage) => Promise<void> | void;
  onConnect?: () => void;
  onDisconnect?: (reason: string, delayMs: number) => void;
  checkResponse: (response: Response) => Promise<void> | void;
}): Promise<void>;

export function describeFetchError(error: unknown): string;
