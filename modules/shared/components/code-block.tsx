"use client";
// Code shown as written: monospace, scrollable, under a bar naming its language with a copy button
// (the webhook page's snippets, the API reference's schemas).
import { cn } from "@/modules/shared/cn";
import { CopyButton } from "@/modules/shared/components/copy-button";

export function CodeBlock({
  code,
  codeLanguage,
  copyLabel,
  className,
}: {
  code: string;
  codeLanguage: string;
  copyLabel: string;
  /** Extra classes of the scrolling area, e.g. a maximum height. */
  className?: string;
}) {
  return (
    <div className="bg-muted/50 min-w-0 overflow-hidden rounded-lg border">
      <div className="bg-muted/60 flex items-center justify-between gap-2 border-b py-1 pr-1 pl-4">
        <span className="text-muted-foreground truncate font-mono text-xs">{codeLanguage}</span>
        <CopyButton value={code} label={copyLabel} className="text-muted-foreground" />
      </div>
      <pre className={cn("overflow-x-auto p-4 font-mono text-xs leading-relaxed [tab-size:4]", className)}>
        <code>{code}</code>
      </pre>
    </div>
  );
}
