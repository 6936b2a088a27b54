"use client";
// The sign-in methods of the login and register pages: when a social provider
// is enabled, its buttons, a separator and a button that reveals the email form; otherwise the
// email form alone. A social button disables itself once clicked, while the browser leaves.
import { MailIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Separator } from "@/components/ui/separator";
import { Spinner } from "@/components/ui/spinner";
import { useAppConfig } from "@/modules/config/components/config-provider";
import { useToast } from "@/modules/shared/components/toasts-on-demand";
import { authClient } from "../auth.client";
import { SOCIAL_PROVIDERS } from "../auth.constants";
import { GithubIcon, GoogleIcon } from "./provider-icons";
import { readReturnPath } from "./return-path";
import { useAuthErrorMessage } from "./use-auth-error-message";

type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

export function AuthMethods({
  intent = "login",
  emailButtonLabel,
  children,
}: {
  /** Which page: its provider buttons say "Login with …" or "Sign up with …". */
  intent?: "login" | "register";
  emailButtonLabel: string;
  children: ReactNode;
}) {
  const t = useTranslations("authProviders");
  const config = useAppConfig();
  const [isEmailFormShown, setIsEmailFormShown] = useState(false);
  const emailFormRef = useRef<HTMLDivElement>(null);
  const providers = SOCIAL_PROVIDERS.filter((provider) => config.auth.providers[provider].isEnabled);
  // The button that revealed the form is gone: focus moves on to the form's first field.
  useEffect(() => {
    if (isEmailFormShown) emailFormRef.current?.querySelector("input")?.focus();
  }, [isEmailFormShown]);

  if (providers.length === 0) return children;
  return (
    <div className="flex flex-col gap-4">
      <SocialProviderButtons providers={providers} intent={intent} />
      <div className="flex items-center gap-3" role="presentation">
        <Separator className="flex-1" />
        <span className="text-muted-foreground text-xs uppercase">{t("or")}</span>
        <Separator className="flex-1" />
      </div>
      {isEmailFormShown ? (
        <div ref={emailFormRef}>{children}</div>
      ) : (
        <Button variant="outline" onClick={() => setIsEmailFormShown(true)}>
          <MailIcon aria-hidden />
          {emailButtonLabel}
        </Button>
      )}
    </div>
  );
}

function SocialProviderButtons({ providers, intent }: { providers: SocialProvider[]; intent: "login" | "register" }) {
  const t = useTranslations("authProviders");
  const toast = useToast();
  const [pendingProvider, setPendingProvider] = useState<SocialProvider | null>(null);
  const authErrorMessage = useAuthErrorMessage(t("unknownError"));
  const labels: Record<SocialProvider, string> =
    intent === "register"
      ? { github: t("signUpWithGithub"), google: t("signUpWithGoogle") }
      : { github: t("loginWithGithub"), google: t("loginWithGoogle") };
  const icons: Record<SocialProvider, ReactNode> = { github: <GithubIcon />, google: <GoogleIcon /> };

  async function signInWith(provider: SocialProvider) {
    setPendingProvider(provider);
    const { error } = await authClient.signIn.social({ provider, callbackURL: readReturnPath() });
    if (!error) return;
    setPendingProvider(null);
    toast.error(authErrorMessage(error));
  }

  return (
    <div className="flex flex-col gap-2">
      {providers.map((provider) => (
        <Button key={provider} variant="outline" disabled={pendingProvider !== null} onClick={() => signInWith(provider)}>
          {pendingProvider === provider ? <Spinner /> : icons[provider]}
          {labels[provider]}
        </Button>
      ))}
    </div>
  );
}
