// The small SQL interface the repositories and the migration runner need, over node-postgres (Pool,
// PoolClient, Client). Session state (advisory locks, BEGIN/COMMIT) belongs to one connection, so callers that
// need it run their work inside `withConnection`: a pool checks one client out for the duration,
// a single connection simply hands itself over. `transaction` runs work in BEGIN … COMMIT on one
// session.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFromStdin } from "pg-copy-streams";

/**
 * A statement of the hot path, prepared once per connection under its name and then only bound
 * and run: the server parses and plans it once per connection instead of at every call. The text
 * must be fixed (no values written into it), as a name stands for one text.
 */
export type PreparedStatement = { name: string; text: string };

export const prepared = (name: string, text: string): PreparedStatement => ({ name: `hookmail_${name}`, text });

export type SqlExecutor = {
  /** Runs one statement with `$1`-style parameters and returns its rows. */
  query<T>(sql: string | PreparedStatement, params?: unknown[]): Promise<T[]>;
  /** Runs a script of one or more statements, without parameters. */
  exec(sql: string): Promise<void>;
  /**
   * Runs `COPY … FROM STDIN` (`sql`) with `chunks` as its data, each written to the connection as it
   * is, never copied into a protocol message of the driver's (a statement's parameters are). The
   * chunks may be reused once it resolves: the server has read them all by then.
   */
  copyFrom(sql: string, chunks: readonly Uint8Array[]): Promise<void>;
  /** Runs `fn` on one dedicated connection (the same session for every statement). */
  withConnection<R>(fn: (connection: SqlExecutor) => Promise<R>): Promise<R>;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws.
   * `opening`, statements without parameters, runs first, in the same round trip as BEGIN.
   */
  transaction<R>(fn: (transaction: SqlExecutor) => Promise<R>, options?: TransactionOptions): Promise<R>;
};

export type TransactionOptions = { opening?: string };

/**
 * A timestamp parameter (`$n`, an ISO string) as the `timestamp(3)` columns Prisma writes: UTC
 * without a zone, whatever the session's time zone.
 */
export const utcTimestampParameter = (index: number) => `($${index}::timestamptz AT TIME ZONE 'UTC')`;

export function createPgExecutor(client: pg.Pool | pg.PoolClient | pg.Client): SqlExecutor {
  return client instanceof pg.Pool ? createPgPoolExecutor(client) : createPgConnectionExecutor(client);
}

function toQueryConfig(sql: string | PreparedStatement, values?: unknown[]): pg.QueryConfig {
  return typeof sql === "string" ? { text: sql, values } : { name: sql.name, text: sql.text, values };
}

/** BEGIN … COMMIT on a connection that nothing else uses meanwhile; ROLLBACK when `fn` throws. */
async function runTransaction<R>(
  connection: SqlExecutor,
  fn: (transaction: SqlExecutor) => Promise<R>,
  { opening }: TransactionOptions = {},
): Promise<R> {
  // Several statements without parameters go in one simple-protocol round trip.
  await connection.exec(opening ? `BEGIN; ${opening}` : "BEGIN");
  let result: R;
  try {
    result = await fn(connection);
  } catch (error) {
    await connection.exec("ROLLBACK");
    throw error;
  }
  await connection.exec("COMMIT");
  return result;
}

/** `query` and `exec` over a pool (any free connection) or one connection. */
function createStatementRunner(runner: pg.Pool | pg.PoolClient | pg.Client): Pick<SqlExecutor, "query" | "exec"> {
  return {
    async query<T>(sql: string | PreparedStatement, params?: unknown[]) {
      const result = await runner.query(toQueryConfig(sql, params));
      return result.rows as T[];
    },
    async exec(sql: string) {
      // Without parameters node-postgres uses the simple query protocol, which accepts several statements.
      await runner.query(sql);
    },
  };
}

/** COPY FROM STDIN on one connection, its data the chunks. */
async function copyChunksFrom(client: pg.PoolClient | pg.Client, sql: string, chunks: readonly Uint8Array[]) {
  await pipeline(Readable.from(chunks, { objectMode: false }), client.query(copyFromStdin(sql)));
}

function createPgConnectionExecutor(client: pg.PoolClient | pg.Client): SqlExecutor {
  const executor: SqlExecutor = {
    ...createStatementRunner(client),
    copyFrom: (sql, chunks) => copyChunksFrom(client, sql, chunks),
    withConnection: (fn) => fn(executor),
    // Nested calls run in the transaction already open on this connection.
    transaction: async (fn, options) => {
      if (!isInTransaction) return inTransaction(fn, options);
      if (options?.opening) await executor.exec(options.opening);
      return fn(executor);
    },
  };
  let isInTransaction = false;
  const inTransaction = async <R>(fn: (transaction: SqlExecutor) => Promise<R>, options?: TransactionOptions) => {
    isInTransaction = true;
    try {
      return await runTransaction(executor, fn, options);
    } finally {
      isInTransaction = false;
    }
  };
  return executor;
}

function createPgPoolExecutor(pool: pg.Pool): SqlExecutor {
  const executor: SqlExecutor = {
    ...createStatementRunner(pool),
    copyFrom: (sql, chunks) => executor.withConnection((connection) => connection.copyFrom(sql, chunks)),
    async withConnection(fn) {
      const client = await pool.connect();
      try {
        const result = await fn(createPgConnectionExecutor(client));
        client.release();
        return result;
      } catch (error) {
        // Discard the connection rather than return one with unknown session state to the pool.
        client.release(true);
        throw error;
      }
    },
    transaction: (fn, options) => executor.withConnection((connection) => connection.transaction(fn, options)),
  };
  return executor;
}
