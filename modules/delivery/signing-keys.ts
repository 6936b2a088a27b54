// The Ed25519 keys of endpoints that sign with `v1a` (docs/webhooks.md: Ed25519 signatures): a key
// pair per endpoint, the public key shown as `whpk_` + base64 of its 32 raw bytes, the private key
// kept only encrypted. At rest it is AES-256-GCM under a key derived from AUTH_SECRET with HKDF, so a
// copy of the database alone signs nothing; a changed AUTH_SECRET makes the stored keys unreadable,
// and reading one then fails loudly instead of signing with garbage.
import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  createSecretKey,
  generateKeyPairSync,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from "node:crypto";

export const PUBLIC_KEY_PREFIX = "whpk_";

/** An Ed25519 key is 32 bytes (RFC 8032): the public key, and the private key's seed. */
const ED25519_KEY_BYTES = 32;
/** The DER that precedes the 32 key bytes: PKCS #8 of a private key, SPKI of a public key (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/**
 * The one way private keys are stored today: `v1:` + base64url(nonce ‖ ciphertext ‖ tag), where the
 * key is HKDF-SHA256(AUTH_SECRET, no salt, ENCRYPTION_KEY_INFO) and the cipher AES-256-GCM with a
 * random 12-byte nonce, the prefix as additional data, over the private key's 32-byte seed. Another
 * scheme gets another prefix; a value of an unknown one is refused, never guessed at.
 */
const STORED_KEY_VERSION = "v1";
const ENCRYPTION_KEY_INFO = "hookmail endpoint signing keys v1";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export type SigningKeyPair = {
  /** `whpk_` + base64 of the raw public key: what the receiver verifies with. */
  publicKey: string;
  /** Never leaves the server, never logged, stored only through encryptSigningKey. */
  privateKey: KeyObject;
};

/** A stored private key that cannot be used: wrong AUTH_SECRET, damaged value, unknown scheme, or not the endpoint's pair. */
export class SigningKeyUnreadableError extends Error {
  override name = "SigningKeyUnreadableError";
}

export function generateSigningKeyPair(): SigningKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  return { publicKey: formatPublicKey(publicKey), privateKey };
}

/** `whpk_` + base64 of the 32 raw bytes of an Ed25519 public key (the last 32 bytes of its SPKI DER). */
export function formatPublicKey(key: KeyObject): string {
  const publicKey = key.type === "private" ? createPublicKey(key) : key;
  if (publicKey.asymmetricKeyType !== "ed25519") throw new TypeError("an Ed25519 key is expected");
  const der = publicKey.export({ format: "der", type: "spki" });
  return `${PUBLIC_KEY_PREFIX}${der.subarray(der.length - ED25519_KEY_BYTES).toString("base64")}`;
}

/** The key object of a `whpk_` public key; throws on anything else. */
export function parsePublicKey(value: string): KeyObject {
  const encoded = value.startsWith(PUBLIC_KEY_PREFIX) ? value.slice(PUBLIC_KEY_PREFIX.length) : "";
  const raw = Buffer.from(encoded, "base64");
  if (raw.length !== ED25519_KEY_BYTES || raw.toString("base64") !== encoded) {
    throw new TypeError("not a whpk_ public key: whpk_ followed by the base64 of 32 bytes is expected");
  }
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, raw]), format: "der", type: "spki" });
}

/**
 * The key that encrypts the stored private keys, derived from the auth secret (never the secret
 * itself) under its own label, apart from every other key derived from it. Made once per process.
 */
export function deriveSigningKeyEncryptionKey(authSecret: string): KeyObject {
  if (authSecret === "") throw new TypeError("the auth secret is empty");
  return createSecretKey(Buffer.from(hkdfSync("sha256", authSecret, Buffer.alloc(0), ENCRYPTION_KEY_INFO, 32)));
}

function exportSeed(privateKey: KeyObject): Buffer {
  if (privateKey.type !== "private" || privateKey.asymmetricKeyType !== "ed25519") {
    throw new TypeError("an Ed25519 private key is expected");
  }
  const der = privateKey.export({ format: "der", type: "pkcs8" });
  return der.subarray(der.length - ED25519_KEY_BYTES);
}

/** The private key as it is stored: one self-describing string (see STORED_KEY_VERSION). */
export function encryptSigningKey(privateKey: KeyObject, encryptionKey: KeyObject): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(STORED_KEY_VERSION, "utf8"));
  const seed = exportSeed(privateKey);
  const sealed = Buffer.concat([nonce, cipher.update(seed), cipher.final(), cipher.getAuthTag()]);
  seed.fill(0);
  return `${STORED_KEY_VERSION}:${sealed.toString("base64url")}`;
}

/**
 * The private key of a stored value, checked against the endpoint's public key: the value must
 * decrypt under this AUTH_SECRET and be the other half of that public key, else it throws
 * SigningKeyUnreadableError (whose message never holds key material).
 */
export function decryptSigningKey({
  encrypted,
  publicKey,
  encryptionKey,
}: {
  encrypted: string;
  publicKey: string;
  encryptionKey: KeyObject;
}): KeyObject {
  const separator = encrypted.indexOf(":");
  const version = separator === -1 ? "" : encrypted.slice(0, separator);
  if (version !== STORED_KEY_VERSION) {
    throw new SigningKeyUnreadableError("The endpoint's signing key is stored in an unknown format.");
  }
  const sealed = Buffer.from(encrypted.slice(separator + 1), "base64url");
  if (sealed.length !== NONCE_BYTES + ED25519_KEY_BYTES + TAG_BYTES) {
    throw new SigningKeyUnreadableError("The endpoint's signing key is damaged: it has the wrong length.");
  }
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey, sealed.subarray(0, NONCE_BYTES), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(Buffer.from(STORED_KEY_VERSION, "utf8"));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  let seed: Buffer;
  try {
    seed = Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new SigningKeyUnreadableError(
      "The endpoint's signing key cannot be decrypted: AUTH_SECRET is not the one it was encrypted with, or the stored value is damaged.",
    );
  }
  const der = Buffer.concat([PKCS8_ED25519_PREFIX, seed]);
  seed.fill(0);
  const privateKey = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
  der.fill(0);
  if (formatPublicKey(privateKey) !== publicKey) {
    throw new SigningKeyUnreadableError("The endpoint's signing key does not match its public key.");
  }
  return privateKey;
}
