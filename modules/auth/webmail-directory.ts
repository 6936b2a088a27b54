// The known webmail providers: an address's host gives
// the provider's name, its inbox URL and, where the webmail supports it, a search URL template in
// which {sender} stands for the address the mail comes from.
export type MailProvider = {
  name: string;
  inboxUrl: string;
  searchUrl?: string;
};

const SENDER_PLACEHOLDER = "{sender}";

const MAIL_PROVIDERS: { provider: MailProvider; hosts: string[] }[] = [
  {
    provider: {
      name: "Gmail",
      inboxUrl: "https://mail.google.com/mail/u/0/#inbox",
      searchUrl: "https://mail.google.com/mail/u/0/#search/from%3A{sender}",
    },
    hosts: ["gmail.com", "googlemail.com"],
  },
  {
    provider: {
      name: "Yahoo",
      inboxUrl: "https://mail.yahoo.com/d/folders/1",
      searchUrl: "https://mail.yahoo.com/d/search/keyword=from%253A{sender}",
    },
    hosts: [
      "yahoo.com",
      "yahoo.fr",
      "yahoo.co.uk",
      "yahoo.de",
      "yahoo.es",
      "yahoo.it",
      "yahoo.ca",
      "yahoo.com.br",
      "yahoo.com.au",
      "yahoo.co.in",
      "ymail.com",
      "rocketmail.com",
      "myyahoo.com",
    ],
  },
  {
    provider: { name: "Fastmail", inboxUrl: "https://app.fastmail.com/mail/Inbox/" },
    hosts: [
      "fastmail.com",
      "fastmail.fm",
      "messagingengine.com",
      "fastmail.cn",
      "fastmail.co.uk",
      "fastmail.com.au",
      "fastmail.de",
      "fastmail.es",
      "fastmail.in",
      "fastmail.jp",
      "fastmail.mx",
      "fastmail.net",
      "fastmail.nl",
      "fastmail.org",
      "fastmail.se",
      "fastmail.to",
      "fastmail.tw",
      "fastmail.uk",
      "fastmail.us",
      "sent.com",
      "123mail.org",
      "airpost.net",
      "eml.cc",
      "fmail.co.uk",
      "fmgirl.com",
      "fmguy.com",
      "mailbolt.com",
      "mailcan.com",
      "mailhaven.com",
      "mailmight.com",
      "ml1.net",
      "mm.st",
      "myfastmail.com",
      "proinbox.com",
      "promessage.com",
      "rushpost.com",
      "speedymail.org",
      "warpmail.net",
      "xsmail.com",
      "150mail.com",
      "150ml.com",
      "16mail.com",
      "2-mail.com",
      "4email.net",
      "50mail.com",
      "allmail.net",
      "bestmail.us",
      "cluemail.com",
      "elitemail.org",
      "emailcorner.net",
      "emailengine.net",
      "emailengine.org",
      "emailgroups.net",
      "emailplus.org",
      "emailuser.net",
      "f-m.fm",
      "fast-email.com",
      "fast-mail.org",
      "fastem.com",
      "fastemail.us",
      "fastemailer.com",
      "fastest.cc",
      "fastimap.com",
      "fastmailbox.net",
      "fastmessaging.com",
      "fea.st",
      "fmailbox.com",
      "ftml.net",
      "h-mail.us",
      "hailmail.net",
      "imap-mail.com",
      "imap.cc",
      "imapmail.org",
      "inoutbox.com",
      "internet-e-mail.com",
      "internet-mail.org",
      "internetemails.net",
      "internetmailing.net",
      "jetemail.net",
      "justemail.net",
      "letterboxes.org",
      "mail-central.com",
      "mail-page.com",
      "mailandftp.com",
      "mailas.com",
      "mailc.net",
      "mailforce.net",
      "mailftp.com",
      "mailingaddress.org",
      "mailite.com",
      "mailnew.com",
      "mailsent.net",
      "mailservice.ms",
      "mailup.net",
      "mailworks.org",
      "mymacmail.com",
      "nospammail.net",
      "ownmail.net",
      "petml.com",
      "postinbox.com",
      "postpro.net",
      "realemail.net",
      "reallyfast.biz",
      "reallyfast.info",
      "speedpost.net",
      "ssl-mail.com",
      "swift-mail.com",
      "the-fastest.net",
      "the-quickest.com",
      "theinternetemail.com",
      "veryfast.biz",
      "veryspeedy.net",
      "yepmail.net",
      "your-mail.com",
    ],
  },
  {
    provider: {
      name: "ProtonMail",
      inboxUrl: "https://mail.proton.me/u/0/inbox",
      searchUrl: "https://mail.proton.me/u/0/all-mail#keyword={sender}",
    },
    hosts: ["protonmail.com", "protonmail.ch", "proton.me", "pm.me"],
  },
  {
    provider: { name: "iCloud", inboxUrl: "https://www.icloud.com/mail/" },
    hosts: ["icloud.com", "me.com", "mac.com"],
  },
  {
    provider: { name: "Mail.ru", inboxUrl: "https://e.mail.ru/inbox/" },
    hosts: ["mail.ru", "inbox.ru", "list.ru", "bk.ru"],
  },
  {
    provider: {
      name: "AOL",
      inboxUrl: "https://mail.aol.com/d/folders/1",
      searchUrl: "https://mail.aol.com/d/search/keyword=from%253A{sender}",
    },
    hosts: ["aol.com"],
  },
  {
    provider: { name: "Zoho", inboxUrl: "https://mail.zoho.com/zm/#mail/folder/inbox" },
    hosts: ["zoho.com", "zohomail.com"],
  },
  {
    provider: { name: "BOL", inboxUrl: "https://email.bol.com.br/" },
    hosts: ["bol.com.br"],
  },
  {
    provider: { name: "UOL", inboxUrl: "https://email.uol.com.br/" },
    hosts: ["uol.com.br"],
  },
  {
    provider: { name: "Outlook", inboxUrl: "https://outlook.live.com/mail/0/inbox" },
    hosts: ["outlook.com", "hotmail.com", "live.com", "msn.com", "hotmail.fr", "live.fr", "outlook.fr"],
  },
  {
    provider: { name: "Hey", inboxUrl: "https://app.hey.com/imbox" },
    hosts: ["hey.com"],
  },
  {
    provider: {
      name: "Yandex",
      inboxUrl: "https://mail.yandex.com/",
      searchUrl: "https://mail.yandex.com/#search?request={sender}",
    },
    hosts: ["yandex.com", "yandex.ru", "ya.ru"],
  },
  {
    provider: { name: "Tuta", inboxUrl: "https://app.tuta.com/mail" },
    hosts: ["tuta.com", "tutanota.com", "tutanota.de", "tutamail.com", "tuta.io", "keemail.me"],
  },
  {
    provider: { name: "GMX", inboxUrl: "https://www.gmx.com/" },
    hosts: ["gmx.com"],
  },
  {
    provider: { name: "GMX", inboxUrl: "https://www.gmx.net/" },
    hosts: ["gmx.de", "gmx.net"],
  },
  {
    provider: { name: "GMX", inboxUrl: "https://www.gmx.fr/" },
    hosts: ["gmx.fr"],
  },
];

const MAIL_PROVIDERS_BY_HOST: ReadonlyMap<string, MailProvider> = new Map(
  MAIL_PROVIDERS.flatMap(({ provider, hosts }) => hosts.map((host) => [host, provider] as const)),
);

/** The webmail provider of an address, from its host (case-insensitive), or null when unknown. */
export function findMailProvider(email: string): MailProvider | null {
  const at = email.lastIndexOf("@");
  if (at < 0) return null;
  const host = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  return MAIL_PROVIDERS_BY_HOST.get(host) ?? null;
}

/** Where to send the user: the search for the sender's mails when the provider supports it, else the inbox. */
export function getMailProviderUrl({ provider, sender }: { provider: MailProvider; sender?: string }): string {
  if (!sender || !provider.searchUrl) return provider.inboxUrl;
  return provider.searchUrl.replace(SENDER_PLACEHOLDER, encodeURIComponent(sender));
}
