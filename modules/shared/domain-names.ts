// Domain names as a user typed them: names are stored and returned by the API as DNS writes them,
// IDN labels as A-labels (`xn--bcher-kva.example`), and the dashboard shows them in their Unicode
// form (`bücher.example`), display only (docs/domains.md: Names). The browser has no
// `domainToUnicode` (and `new URL()` keeps A-labels), so labels are decoded here with punycode.js.
import { decode } from "punycode.js";

const A_LABEL_PREFIX = "xn--";

function toUnicodeLabel(label: string): string {
  if (!label.toLowerCase().startsWith(A_LABEL_PREFIX)) return label;
  try {
    const decoded = decode(label.slice(A_LABEL_PREFIX.length).toLowerCase());
    // A label that decodes to plain ASCII is no IDN (a fake A-label): it is shown as written.
    return decoded !== "" && /[^\p{ASCII}]/u.test(decoded) ? decoded : label;
  } catch {
    return label;
  }
}

/** `xn--bcher-kva.example` → `bücher.example`; an ASCII name, or a label that does not decode, stays as it is. */
export function toUnicodeDomainName(name: string): string {
  return name.split(".").map(toUnicodeLabel).join(".");
}

/** `orders-*@xn--bcher-kva.example` → `orders-*@bücher.example`: the domain after the last `@`, shown in Unicode. */
export function toUnicodeAddress(address: string): string {
  const at = address.lastIndexOf("@");
  return at < 0 ? address : `${address.slice(0, at + 1)}${toUnicodeDomainName(address.slice(at + 1))}`;
}
