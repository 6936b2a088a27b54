// The cards of the public auth pages: a large title, its description, then the content.
import Link from "next/link";
import type { ComponentProps } from "react";
import { Button } from "@/components/ui/button";
import { TitledCard } from "@/modules/shared/components/titled-card";

export function AuthCard(props: Omit<ComponentProps<typeof TitledCard>, "titleClassName">) {
  return <TitledCard titleClassName="text-xl" {...props} />;
}

/** A page's lone card whose one action is a full-width link to /login. */
export function LoginLinkCard({
  title,
  description,
  linkLabel,
  linkVariant,
}: {
  title: string;
  description: string;
  linkLabel: string;
  linkVariant?: ComponentProps<typeof Button>["variant"];
}) {
  return (
    <AuthCard title={title} description={description} className="w-full max-w-sm">
      <Button asChild variant={linkVariant} className="w-full">
        <Link href="/login">{linkLabel}</Link>
      </Button>
    </AuthCard>
  );
}
