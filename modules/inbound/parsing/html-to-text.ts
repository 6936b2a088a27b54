// The text of an HTML-only mail (the webhook's `text`), in bounded time and without failing: the
// parser's own conversion runs unbounded on the event loop (seconds for deeply nested markup) and
// refuses the whole message when it throws. Here html-to-text gets a depth limit, and HTML too
// large for it is reduced to its text by one linear pass.
import { convert } from "html-to-text";

/** HTML up to this many characters goes through html-to-text; larger HTML through the linear pass. */
export const MAX_FORMATTED_HTML_CHARS = 1024 * 1024;

/** Elements nested deeper than this are left out by html-to-text (real mail stays far below it). */
export const MAX_FORMATTED_HTML_DEPTH = 256;

const FORMAT_OPTIONS = { limits: { maxDepth: MAX_FORMATTED_HTML_DEPTH, ellipsis: "" } } as const;

/** Plain text of an HTML body: html-to-text's layout when the HTML is of a sane size and depth, else its bare text. */
export function htmlToPlainText(html: string): string {
  if (html.length <= MAX_FORMATTED_HTML_CHARS && measureNesting(html) <= MAX_FORMATTED_HTML_DEPTH) {
    try {
      return convert(html, FORMAT_OPTIONS);
    } catch {
      // Markup html-to-text cannot handle still has text: the linear pass below finds it.
    }
  }
  return stripTags(html);
}

const BLOCK_TAGS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "br",
  "dd",
  "div",
  "dl",
  "dt",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "tr",
  "ul",
]);

/** Elements whose content is not text. */
const SKIPPED_ELEMENTS = new Set(["script", "style", "head", "title"]);

/** A start or end tag at a position; it cannot contain "<", so a failed match never scans past the next tag. */
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^<>]*>/y;

const VOID_ELEMENTS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);

/** How deep elements nest, about (unclosed elements count as open): one linear pass over the tags. */
export function measureNesting(html: string): number {
  let depth = 0;
  let deepest = 0;
  for (let open = html.indexOf("<"); open >= 0; open = html.indexOf("<", open + 1)) {
    TAG.lastIndex = open;
    const tag = TAG.exec(html);
    if (!tag) continue;
    const [whole, slash, name = ""] = tag;
    if (slash) depth = Math.max(0, depth - 1);
    else if (!VOID_ELEMENTS.has(name.toLowerCase()) && !whole.endsWith("/>")) deepest = Math.max(deepest, ++depth);
  }
  return deepest;
}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntity(entity: string, body: string): string {
  if (body.startsWith("#x") || body.startsWith("#X")) return fromCodePoint(parseInt(body.slice(2), 16), entity);
  if (body.startsWith("#")) return fromCodePoint(parseInt(body.slice(1), 10), entity);
  return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
}

function fromCodePoint(codePoint: number, fallback: string): string {
  return Number.isInteger(codePoint) && codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : fallback;
}

/**
 * The text of HTML in one linear pass: comments, scripts, styles and the head dropped, block
 * elements as line breaks, other tags removed, the common entities decoded, spaces collapsed, at
 * most one empty line in a row. Unclosed comments and elements cost no rescans: once a closing
 * mark is missing after a point, it is missing after any later one too.
 */
export function stripTags(html: string): string {
  const pieces: string[] = [];
  const missingEnds = new Set<string>();
  let index = 0;
  while (index < html.length) {
    const open = html.indexOf("<", index);
    if (open < 0) {
      pieces.push(html.slice(index));
      break;
    }
    pieces.push(html.slice(index, open));
    if (html.startsWith("<!--", open)) {
      const end = missingEnds.has("--") ? -1 : html.indexOf("-->", open + 4);
      if (end < 0) missingEnds.add("--");
      index = end < 0 ? open + 4 : end + 3;
      continue;
    }
    TAG.lastIndex = open;
    const tag = TAG.exec(html);
    if (!tag) {
      pieces.push("<");
      index = open + 1;
      continue;
    }
    const [whole, slash, rawName = ""] = tag;
    const name = rawName.toLowerCase();
    index = open + whole.length;
    if (!slash && SKIPPED_ELEMENTS.has(name) && !missingEnds.has(name)) {
      const end = new RegExp(`</${name}\\s*>`, "gi");
      end.lastIndex = index;
      const found = end.exec(html);
      if (found) {
        index = found.index + found[0].length;
        continue;
      }
      missingEnds.add(name);
    }
    if (BLOCK_TAGS.has(name)) pieces.push("\n");
  }
  return pieces
    .join("")
    .replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,8});/g, (entity, body: string) => decodeEntity(entity, body))
    .replace(/[ \t\f\v\u00a0]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
