// planer ships no types: only the plain-text entry point used by the accuracy test.
declare module "planer" {
  export function extractFrom(msgBody: string, contentType?: "text/plain" | "text/html", dom?: unknown): string;
}
