// The Hookmail wordmark: an envelope with a hook, and the name.
import { MailIcon } from "lucide-react";

export function Logo() {
  return (
    <span className="flex items-center gap-2 font-semibold tracking-tight">
      <span className="bg-primary text-primary-foreground flex size-7 items-center justify-center rounded-md">
        <MailIcon className="size-4" aria-hidden />
      </span>
      Hookmail
    </span>
  );
}
