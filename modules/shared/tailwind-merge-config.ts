// tailwind-merge's configuration, limited to the classes the app writes.
//
// With its default configuration tailwind-merge knows every Tailwind class and weighs ~8.4 kB gzip
// in every page's JavaScript; this one lists only the class groups of the classes written in app/,
// components/ and modules/, and in each group only the values written (word values such as
// `cursor-pointer`; the numeric, arbitrary and color scales whole), with the default's ids, its
// order (where groups share a prefix, such as `text-lg` and `text-primary`, the first that
// matches wins) and its conflicts between these groups. The default's theme is written inline:
// spacing is "px" or a number, any value is a color, text sizes, radii, shadows and max widths
// are t-shirt sizes.
//
// The rule, checked by cn.test.ts over every token of the sources' strings: each class written in
// the app belongs to the same group as with tailwind-merge's default configuration, and merges
// alone and in every ordered pair with another as the default twMerge merges it. So a class of a
// new kind (a group not listed here, or a value its group does not list) fails that test: then add
// the group, or the value, as tailwind-merge's default configuration defines it
// (node_modules/tailwind-merge/src/lib/default-config.ts), with the group's conflicts; the test
// also fails on a group no class uses any more.

// tailwind-merge 3.7.0's validators (its src/lib/validators.ts), those the groups below use: the
// package's `validators` export carries all 27 of them (~0.9 kB gzip in every page).
const arbitraryValueRegex = /^\[(?:(\w[\w-]*):)?(.+)\]$/i;
const arbitraryVariableRegex = /^\((?:(\w[\w-]*):)?(.+)\)$/i;
const lengthUnitRegex =
  /\d+(%|px|r?em|[sdl]?v([hwib]|min|max)|pt|pc|in|cm|mm|cap|ch|ex|r?lh|cq(w|h|i|b|min|max))|\b(calc|min|max|clamp)\(.+\)|^0$/;
const colorFunctionRegex = /^(rgba?|hsla?|hwb|(ok)?(lab|lch)|color-mix|color|light-dark)\(.+\)$/;
const shadowRegex = /^(inset_)?-?((\d+)?\.?(\d+)[a-z]+|0)_-?((\d+)?\.?(\d+)[a-z]+|0)/;
const isAny = () => true;
const isNumber = (value: string) => !!value && !Number.isNaN(Number(value));
const isInteger = (value: string) => !!value && Number.isInteger(Number(value));
const isTshirtSize = (value: string) => /^(\d+(\.\d+)?)?(xs|sm|md|lg|xl)$/.test(value);
const isArbitraryValue = (value: string) => arbitraryValueRegex.test(value);
const isArbitraryVariable = (value: string) => arbitraryVariableRegex.test(value);
const isAnyNonArbitrary = (value: string) => !isArbitraryValue(value) && !isArbitraryVariable(value);
const isNamedContainerQuery = (value: string) =>
  value.startsWith("@container") &&
  ((value[10] === "/" && value[11] !== undefined) ||
    (value[11] === "s" && value[16] !== undefined && value.startsWith("-size/", 10)) ||
    (value[11] === "n" && value[18] !== undefined && value.startsWith("-normal/", 10)));
/** An arbitrary value `[label:value]`: its label when it has one, else its value, is tested. */
const isArbitraryValueOf = (label: string, testValue: (value: string) => boolean) => (value: string) => {
  const match = arbitraryValueRegex.exec(value);
  return !!match && (match[1] ? match[1] === label : testValue(match[2]!));
};
/** An arbitrary variable `(label:--name)` with that label. */
const isArbitraryVariableOf = (label: string) => (value: string) => arbitraryVariableRegex.exec(value)?.[1] === label;
const isArbitraryLength = isArbitraryValueOf("length", (value) => lengthUnitRegex.test(value) && !colorFunctionRegex.test(value));
const isArbitraryShadow = isArbitraryValueOf("shadow", (value) => shadowRegex.test(value));
const isArbitraryVariableLength = isArbitraryVariableOf("length");
const isArbitraryVariableShadow = isArbitraryVariableOf("shadow");

// The default's scales, shared by the groups below.
const arbitrary = [isArbitraryVariable, isArbitraryValue];
const spacing = [...arbitrary, "px", isNumber];
const color = [isAny, ...arbitrary];
const borderWidth = ["", isNumber, isArbitraryVariableLength, isArbitraryLength];

/** The configuration for createTailwindMerge (groups in the default configuration's order). */
export const getTailwindMergeConfig = () => ({
  cacheSize: 500,
  theme: {},
  classGroups: {
    "container-type": [{ "@container": [""] }],
    "container-named": [isNamedContainerQuery],
    display: [
      "block",
      "inline",
      "flex",
      "inline-flex",
      "table",
      "table-caption",
      "table-cell",
      "table-row",
      "grid",
      "contents",
      "hidden",
    ],
    sr: ["sr-only"],
    overflow: [{ overflow: ["auto", "hidden", "clip", "visible"] }],
    "overflow-x": [{ "overflow-x": ["auto", "hidden"] }],
    "overflow-y": [{ "overflow-y": ["auto"] }],
    position: ["fixed", "absolute", "relative", "sticky"],
    inset: [{ inset: spacing }],
    top: [{ top: spacing }],
    right: [{ right: spacing }],
    bottom: [{ bottom: spacing }],
    left: [{ left: spacing }],
    visibility: ["visible"],
    z: [{ z: [isInteger, ...arbitrary] }],
    basis: [{ basis: spacing }],
    "flex-direction": [{ flex: ["row", "col", "col-reverse"] }],
    "flex-wrap": [{ flex: ["wrap"] }],
    flex: [{ flex: [isNumber, "none"] }],
    shrink: [{ shrink: ["", isNumber, ...arbitrary] }],
    "grid-cols": [{ "grid-cols": [isInteger, ...arbitrary] }],
    "col-start": [{ "col-start": [isInteger, ...arbitrary] }],
    "grid-rows": [{ "grid-rows": [isInteger, ...arbitrary] }],
    "row-start-end": [{ row: [{ span: [isInteger, ...arbitrary] }] }],
    "row-start": [{ "row-start": [isInteger, ...arbitrary] }],
    "auto-rows": [{ "auto-rows": ["min", ...arbitrary] }],
    gap: [{ gap: spacing }],
    "gap-x": [{ "gap-x": spacing }],
    "gap-y": [{ "gap-y": spacing }],
    "justify-content": [{ justify: ["start", "end", "center", "between"] }],
    "justify-self": [{ "justify-self": ["end"] }],
    "align-items": [{ items: ["start", "end", "center", "baseline"] }],
    "align-self": [{ self: ["start"] }],
    "place-content": [{ "place-content": ["center"] }],
    p: [{ p: spacing }],
    px: [{ px: spacing }],
    py: [{ py: spacing }],
    pt: [{ pt: spacing }],
    pr: [{ pr: spacing }],
    pb: [{ pb: spacing }],
    pl: [{ pl: spacing }],
    mx: [{ mx: ["auto", ...spacing] }],
    my: [{ my: ["auto", ...spacing] }],
    mt: [{ mt: ["auto", ...spacing] }],
    mr: [{ mr: ["auto", ...spacing] }],
    mb: [{ mb: ["auto", ...spacing] }],
    ml: [{ ml: ["auto", ...spacing] }],
    size: [{ size: spacing }],
    w: [{ w: ["auto", "full", "fit", ...spacing] }],
    "min-w": [{ "min-w": ["full", ...spacing] }],
    "max-w": [{ "max-w": [isTshirtSize, "full", ...spacing] }],
    h: [{ h: ["auto", "full", ...spacing] }],
    "min-h": [{ "min-h": ["svh", ...spacing] }],
    "max-h": [{ "max-h": spacing }],
    "font-size": [{ text: ["base", isTshirtSize, isArbitraryVariableLength, isArbitraryLength] }],
    "font-smoothing": ["antialiased"],
    "font-style": ["italic"],
    "font-weight": [{ font: ["normal", "medium", "semibold", "bold"] }],
    "font-family": [{ font: [isAnyNonArbitrary] }],
    "fvn-spacing": ["tabular-nums"],
    tracking: [{ tracking: ["tight", "wide", "widest", ...arbitrary] }],
    "line-clamp": [{ "line-clamp": [isNumber] }],
    leading: [{ leading: ["none", "tight", "normal", "relaxed", ...spacing] }],
    "list-style-type": [{ list: ["disc", "none"] }],
    "text-alignment": [{ text: ["left", "center", "right"] }],
    "text-color": [{ text: color }],
    "text-decoration": ["underline"],
    "underline-offset": [{ "underline-offset": [isNumber, ...arbitrary] }],
    "text-transform": ["uppercase"],
    "text-overflow": ["truncate"],
    "text-wrap": [{ text: ["balance"] }],
    "vertical-align": [{ align: ["top", "middle"] }],
    whitespace: [{ whitespace: ["normal", "nowrap", "pre-wrap"] }],
    break: [{ break: ["words", "all"] }],
    "bg-color": [{ bg: color }],
    rounded: [{ rounded: ["", "full", isTshirtSize, ...arbitrary] }],
    "border-w": [{ border: borderWidth }],
    "border-w-t": [{ "border-t": borderWidth }],
    "border-w-b": [{ "border-b": borderWidth }],
    "divide-y": [{ "divide-y": borderWidth }],
    "border-style": [{ border: ["dashed"] }],
    "border-color": [{ border: color }],
    "outline-style": [{ outline: ["none", "hidden"] }],
    "outline-w": [{ outline: borderWidth }],
    "outline-color": [{ outline: color }],
    shadow: [{ shadow: ["none", isTshirtSize, isArbitraryVariableShadow, isArbitraryShadow] }],
    "ring-w": [{ ring: borderWidth }],
    "ring-color": [{ ring: color }],
    "ring-offset-w": [{ "ring-offset": [isNumber, isArbitraryLength] }],
    "ring-offset-color": [{ "ring-offset": color }],
    opacity: [{ opacity: [isNumber, ...arbitrary] }],
    caption: [{ caption: ["bottom"] }],
    transition: [{ transition: ["all", "colors", "opacity", "shadow", "transform", "none", ...arbitrary] }],
    duration: [{ duration: [isNumber, ...arbitrary] }],
    animate: [{ animate: ["spin", "pulse", ...arbitrary] }],
    rotate: [{ rotate: [isNumber, ...arbitrary] }],
    "transform-origin": [{ origin: arbitrary }],
    "translate-x": [{ "translate-x": spacing }],
    "translate-y": [{ "translate-y": spacing }],
    accent: [{ accent: color }],
    appearance: [{ appearance: ["none"] }],
    cursor: [{ cursor: ["default", "pointer", "not-allowed"] }],
    "pointer-events": [{ "pointer-events": ["none"] }],
    "scroll-my": [{ "scroll-my": spacing }],
    "scroll-mt": [{ "scroll-mt": spacing }],
    select: [{ select: ["none"] }],
    fill: [{ fill: color }],
  },
  conflictingClassGroups: {
    "container-named": ["container-type"],
    overflow: ["overflow-x", "overflow-y"],
    inset: ["top", "right", "bottom", "left"],
    flex: ["basis", "shrink"],
    gap: ["gap-x", "gap-y"],
    p: ["px", "py", "pt", "pr", "pb", "pl"],
    px: ["pr", "pl"],
    py: ["pt", "pb"],
    mx: ["mr", "ml"],
    my: ["mt", "mb"],
    size: ["w", "h"],
    "font-size": ["leading"],
    "line-clamp": ["display", "overflow"],
    "border-w": ["border-w-t", "border-w-b"],
    "scroll-my": ["scroll-mt"],
  },
  conflictingClassGroupModifiers: { "font-size": ["leading"] },
  postfixLookupClassGroups: ["container-type"],
  // The default's order-sensitive variants (pseudo-elements, `*`) that the app writes.
  orderSensitiveModifiers: ["*", "file", "placeholder", "selection"],
});
