import { describe, expect, it } from "vitest";
import { htmlToPlainText, MAX_FORMATTED_HTML_CHARS, measureNesting, stripTags } from "./html-to-text";

describe("htmlToPlainText", () => {
  it("lays ordinary mail HTML out as html-to-text does: paragraphs, line breaks, links with their address", () => {
    const text = htmlToPlainText(
      '<html><head><style>p{color:red}</style></head><body><p>Hello <b>Alice</b>,</p><p>See <a href="https://example.com/x">the report</a>.<br>Bye</p></body></html>',
    );
    expect(text).toBe("Hello Alice,\n\nSee the report [https://example.com/x].\nBye");
  });

  it("keeps the text of markup nested 50,000 deep, by the linear pass", () => {
    const html = `${"<div>".repeat(50_000)}deep text${"</div>".repeat(50_000)}`;
    expect(measureNesting(html)).toBe(50_000);
    expect(htmlToPlainText(html)).toBe("deep text");
  });

  it("reduces HTML larger than html-to-text is given to its text, whole", () => {
    const paragraph = "<p>word &amp; more</p>";
    const html = paragraph.repeat(Math.ceil(MAX_FORMATTED_HTML_CHARS / paragraph.length) + 10);
    const text = htmlToPlainText(html);
    expect(text.split("\n").filter((line) => line === "word & more")).toHaveLength(
      Math.ceil(MAX_FORMATTED_HTML_CHARS / paragraph.length) + 10,
    );
  });
});

describe("stripTags", () => {
  it("drops comments, scripts, styles and the head, turns blocks into lines and decodes entities", () => {
    const html =
      "<head><title>T</title></head><!-- note --><script>var a = '<p>';</script><STYLE>x</style><h1>Title</h1>one&nbsp;&lt;two&gt; &#233;&#x1F600; &bogus;<li>item</li>";
    expect(stripTags(html)).toBe("Title\none <two> é😀 &bogus;\nitem");
  });

  it("keeps the text after an unclosed comment, script or tag, and a lone <", () => {
    expect(stripTags("a <!-- b <script> c <div d < e")).toBe("a b c <div d < e");
  });

  it("passes over 100,000 unclosed comments, scripts and tags in one linear pass, keeping the text", () => {
    const text = stripTags("<!--<script><a x=1 ".repeat(100_000));
    expect(text.split("<a x=1").length - 1).toBe(100_000);
    expect(text).not.toContain("script");
  });
});
