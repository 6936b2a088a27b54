// The options of the address form's domain select (docs/domains.md: Addresses on a domain): the
// operator's domains alone as before, or, when the user has domains of their own, two labelled
// groups, "Your domains" first. Each shows its name as typed (IDNs in Unicode); its value stays the
// name as the API has it (A-labels).
import { useTranslations } from "next-intl";
import { toUnicodeDomainName } from "@/modules/shared/domain-names";
import type { DomainChoices } from "./email-callback-domains";

export function DomainOptions({ operatorDomains, ownDomains }: DomainChoices) {
  const t = useTranslations("emailCallbacks.form");
  if (ownDomains.length === 0) return <Options domains={operatorDomains} />;
  return (
    <>
      <optgroup label={t("ownDomainsGroup")}>
        <Options domains={ownDomains} />
      </optgroup>
      {operatorDomains.length > 0 ? (
        <optgroup label={t("operatorDomainsGroup")}>
          <Options domains={operatorDomains} />
        </optgroup>
      ) : null}
    </>
  );
}

function Options({ domains }: { domains: string[] }) {
  return domains.map((domain) => (
    <option key={domain} value={domain}>
      {toUnicodeDomainName(domain)}
    </option>
  ));
}

/** Under the address, on a user's own domain: what `*` takes, and which address wins. */
export function OwnDomainUsernameHelp({ id, domain }: { id: string; domain: string }) {
  const t = useTranslations("emailCallbacks.form");
  return (
    <p id={id} className="text-muted-foreground text-sm">
      {t.rich("ownDomainUsernameHelp", {
        domain: toUnicodeDomainName(domain),
        code: (chunks) => <code className="bg-muted rounded px-1 py-0.5 font-mono text-xs">{chunks}</code>,
      })}
    </p>
  );
}
