// Texts in the charsets Hookmail decodes itself with iconv-lite (docs/security.md, Charsets): each
// holds the characters its charset is known for, windows-1252's 0x80–0x9F among them.
export const CHARSET_SAMPLES: [charset: string, text: string][] = [
  ["windows-1252", "€ ‘quoted’ “double” – — …"],
  ["iso-8859-2", "Zażółć gęślą jaźń"],
  ["iso-8859-15", "Prix: 20 € œuvre"],
  ["koi8-r", "Привет, мир"],
  ["gb18030", "你好，世界"],
  ["shift_jis", "こんにちは世界"],
];
