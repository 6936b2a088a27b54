// mailauth types its entry point only: the one helper of its lib/tools used here (mail-auth-headers.ts),
// DMARC's relaxed alignment over its own public suffix list.
declare module "mailauth/lib/tools.js" {
  /** The first entry whose organizational domain is the From domain's, or false. */
  export function getAlignment(fromDomain: string, domainList: string[]): { domain: string } | false;
}
