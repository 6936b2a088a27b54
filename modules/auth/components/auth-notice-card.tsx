// A public page's lone card that says what happened (a link that no longer works, a mail on its way),
// with the ways on stacked under it.
import type { ComponentProps } from "react";
import { AuthCard } from "./auth-card";

export function AuthNoticeCard({
  title,
  description,
  contentClassName = "flex flex-col gap-2",
  children,
}: Pick<ComponentProps<typeof AuthCard>, "title" | "description" | "contentClassName" | "children">) {
  return (
    <AuthCard title={title} description={description} className="w-full max-w-sm" contentClassName={contentClassName}>
      {children}
    </AuthCard>
  );
}
