// The roles of the embedded PostgreSQL server (docs/security.md: The embedded database server).
// initdb makes `hookmail` the cluster's superuser; the app itself connects as `hookmail_app`, an
// ordinary role that owns the `hookmail` database and everything the migrations create in it, so
// a query the app is tricked into running cannot read files, run programs or reach other
// databases as a superuser could. The superuser only prepares this at each start (and serves the
// test suite's throwaway databases). A cluster of an earlier version, whose database and tables
// the superuser owns, is handed over to the app's role at the first start that finds it so.
import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import pg from "pg";

/** The cluster's superuser (initdb's bootstrap role), with the password of DATA_DIR/postgres-password. */
export const ADMIN_ROLE = "hookmail";
/** The role the app connects as: no superuser, the owner of DATABASE. */
export const APP_ROLE = "hookmail_app";
export const DATABASE = "hookmail";
/** Taken while the roles are prepared, so processes starting together do it one at a time. */
const PREPARE_LOCK_KEY = 74_726_572;
const SCRAM_ITERATIONS = 4096;

/**
 * The app role's password, derived from the superuser's: nothing more to keep in DATA_DIR, and
 * knowing it (it is in the app's connection string) does not give the superuser's.
 */
export function deriveAppPassword(adminPassword: string): string {
  return createHmac("sha256", adminPassword).update(`${APP_ROLE} password`).digest("base64url");
}

/** A SCRAM-SHA-256 verifier, so the password itself never travels in a statement (nor lands in the server's log). */
function createScramVerifier(password: string): string {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password, salt, SCRAM_ITERATIONS, 32, "sha256");
  const hmac = (key: Buffer, text: string) => createHmac("sha256", key).update(text).digest();
  const storedKey = createHash("sha256").update(hmac(salted, "Client Key")).digest();
  const serverKey = hmac(salted, "Server Key");
  return `SCRAM-SHA-256$${SCRAM_ITERATIONS}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
}

/**
 * Makes the app's role (no superuser, no other privilege) with its password, the database it
 * owns, and hands it what the superuser owns in that database.
 */
export async function prepareAppDatabase({
  adminUrlFor,
  appPassword,
}: {
  adminUrlFor: (database: string) => string;
  appPassword: string;
}) {
  const admin = new pg.Client({ connectionString: adminUrlFor("postgres") });
  await admin.connect();
  try {
    await admin.query("SELECT pg_advisory_lock($1)", [PREPARE_LOCK_KEY]);
    const role = admin.escapeIdentifier(APP_ROLE);
    const { rowCount } = await admin.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [APP_ROLE]);
    if (rowCount === 0) await admin.query(`CREATE ROLE ${role}`);
    await admin.query(
      `ALTER ROLE ${role} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD ${admin.escapeLiteral(createScramVerifier(appPassword))}`,
    );
    await ensureOwnedDatabase(admin);
    await handOverObjects(adminUrlFor(DATABASE));
  } finally {
    await admin.end();
  }
}

async function ensureOwnedDatabase(admin: pg.Client) {
  const { rows } = await admin.query<{ owner: string }>(
    "SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = $1",
    [DATABASE],
  );
  const database = admin.escapeIdentifier(DATABASE);
  const role = admin.escapeIdentifier(APP_ROLE);
  if (rows.length === 0) await admin.query(`CREATE DATABASE ${database} OWNER ${role}`);
  else if (rows[0]?.owner !== APP_ROLE) await admin.query(`ALTER DATABASE ${database} OWNER TO ${role}`);
}

/**
 * What the superuser owns in the database (an earlier version's tables, sequences, functions,
 * types and schemas) becomes the app role's, in one transaction. Members of an extension stay
 * with it, and sequences and indexes follow their table. Nothing is locked when there is nothing
 * left to hand over, which is every start after the first.
 */
const LIST_ADMIN_OBJECTS_SQL = `
SELECT format('ALTER %s %s OWNER TO %I', kind, name, $2::text) AS statement
FROM (
  SELECT CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
           WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END AS kind,
         c.oid::regclass::text AS name, c.relowner AS owner, c.oid, 'pg_class'::regclass AS catalog, c.relnamespace AS schema
  FROM pg_class c
  WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
    AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                    AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i'))
  UNION ALL
  SELECT 'ROUTINE', p.oid::regprocedure::text, p.proowner, p.oid, 'pg_proc'::regclass, p.pronamespace
  FROM pg_proc p WHERE p.prokind IN ('f', 'p')
  UNION ALL
  SELECT CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, t.oid::regtype::text, t.typowner, t.oid, 'pg_type'::regclass, t.typnamespace
  FROM pg_type t WHERE t.typtype IN ('e', 'd', 'r')
  UNION ALL
  SELECT 'SCHEMA', quote_ident(n.nspname), n.nspowner, n.oid, 'pg_namespace'::regclass, n.oid FROM pg_namespace n
) objects
WHERE owner = (SELECT oid FROM pg_roles WHERE rolname = $1)
  AND schema NOT IN (SELECT oid FROM pg_namespace
                     WHERE nspname IN ('pg_catalog', 'information_schema') OR nspname LIKE 'pg\\_toast%' OR nspname LIKE 'pg\\_temp%')
  AND NOT EXISTS (SELECT 1 FROM pg_depend e WHERE e.classid = objects.catalog AND e.objid = objects.oid AND e.deptype = 'e')
ORDER BY kind = 'SCHEMA' DESC`;

async function handOverObjects(adminUrl: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ statement: string }>(LIST_ADMIN_OBJECTS_SQL, [ADMIN_ROLE, APP_ROLE]);
    if (rows.length === 0) return;
    await admin.query("BEGIN");
    for (const { statement } of rows) await admin.query(statement);
    await admin.query("COMMIT");
  } finally {
    await admin.end();
  }
}
