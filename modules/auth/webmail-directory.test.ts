import { describe, expect, it } from "vitest";
import { findMailProvider, getMailProviderUrl } from "./webmail-directory";

describe("findMailProvider", () => {
  it.each([
    ["jane@gmail.com", "Gmail"],
    ["jane@googlemail.com", "Gmail"],
    ["jane@yahoo.fr", "Yahoo"],
    ["jane@ymail.com", "Yahoo"],
    ["jane@fastmail.com", "Fastmail"],
    ["jane@fastmail.fm", "Fastmail"],
    ["jane@messagingengine.com", "Fastmail"],
    ["jane@123mail.org", "Fastmail"],
    ["jane@your-mail.com", "Fastmail"],
    ["jane@proton.me", "ProtonMail"],
    ["jane@pm.me", "ProtonMail"],
    ["jane@me.com", "iCloud"],
    ["jane@bk.ru", "Mail.ru"],
    ["jane@aol.com", "AOL"],
    ["jane@zohomail.com", "Zoho"],
    ["jane@bol.com.br", "BOL"],
    ["jane@uol.com.br", "UOL"],
    ["jane@hotmail.fr", "Outlook"],
    ["jane@live.com", "Outlook"],
    ["jane@hey.com", "Hey"],
    ["jane@ya.ru", "Yandex"],
    ["jane@keemail.me", "Tuta"],
    ["jane@gmx.de", "GMX"],
  ])("knows the provider of %s (%s)", (email, name) => {
    expect(findMailProvider(email)?.name).toBe(name);
  });

  it("ignores the case of the address and surrounding spaces", () => {
    expect(findMailProvider("Jane.Doe@GMail.COM")?.name).toBe("Gmail");
    expect(findMailProvider("  jane@Proton.Me ")?.name).toBe("ProtonMail");
  });

  it("answers null for an unknown host, a subdomain of a known one, or a string without a host", () => {
    expect(findMailProvider("jane@example.com")).toBeNull();
    expect(findMailProvider("jane@mail.gmail.com")).toBeNull();
    expect(findMailProvider("jane")).toBeNull();
    expect(findMailProvider("jane@")).toBeNull();
  });

  it("reads the host after the last @", () => {
    expect(findMailProvider('"a@b"@gmail.com')?.name).toBe("Gmail");
  });

  it("gives every provider an https inbox URL", () => {
    for (const email of ["a@gmail.com", "a@yahoo.com", "a@fastmail.com", "a@tuta.com", "a@gmx.fr", "a@outlook.com"]) {
      expect(findMailProvider(email)?.inboxUrl).toMatch(/^https:\/\//);
    }
  });
});

describe("getMailProviderUrl", () => {
  const gmail = findMailProvider("jane@gmail.com");
  const outlook = findMailProvider("jane@outlook.com");

  it("opens the inbox when no sender is given", () => {
    expect(gmail && getMailProviderUrl({ provider: gmail })).toBe("https://mail.google.com/mail/u/0/#inbox");
  });

  it("searches the sender's mails, encoded, when the provider has a search URL", () => {
    expect(gmail && getMailProviderUrl({ provider: gmail, sender: "no-reply+auth@hookmail.dev" })).toBe(
      "https://mail.google.com/mail/u/0/#search/from%3Ano-reply%2Bauth%40hookmail.dev",
    );
  });

  it("falls back to the inbox when the provider has no search URL", () => {
    expect(outlook && getMailProviderUrl({ provider: outlook, sender: "no-reply@hookmail.dev" })).toBe(
      "https://outlook.live.com/mail/0/inbox",
    );
  });
});
