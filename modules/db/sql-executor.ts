// The small SQL interface the migration runner needs, over node-postgres (Pool, PoolClient, Client)
// and PGlite. Session state (advisory locks, BEGIN/COMMIT) belongs to one connection, so callers that
// need it run their work inside `withConnection`: a pool checks one client out for the duration,
// a single connection simply hands itself over.
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";

export type SqlExecutor = {
  /** Runs one statement with `$1`-style parameters and returns its rows. */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of one or more statements, without parameters. */
  exec(sql: string): Promise<void>;
  /** Runs `fn` on one dedicated connection (the same session for every statement). */
  withConnection<R>(fn: (connection: SqlExecutor) => Promise<R>): Promise<R>;
};

export function createPgExecutor(client: pg.Pool | pg.PoolClient | pg.Client): SqlExecutor {
  return client instanceof pg.Pool ? createPgPoolExecutor(client) : createPgConnectionExecutor(client);
}

export function createPgliteExecutor(db: PGlite): SqlExecutor {
  const executor: SqlExecutor = {
    async query<T>(sql: string, params?: unknown[]) {
      const result = await db.query<T>(sql, params);
      return result.rows;
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
    // PGlite is a single connection: it is its own dedicated session.
    withConnection: (fn) => fn(executor),
  };
  return executor;
}

function createPgConnectionExecutor(client: pg.PoolClient | pg.Client): SqlExecutor {
  const executor: SqlExecutor = {
    async query<T>(sql: string, params?: unknown[]) {
      const result = await client.query(sql, params);
      return result.rows as T[];
    },
    async exec(sql: string) {
      // Without parameters node-postgres uses the simple query protocol, which accepts several statements.
      await client.query(sql);
    },
    withConnection: (fn) => fn(executor),
  };
  return executor;
}

function createPgPoolExecutor(pool: pg.Pool): SqlExecutor {
  return {
    async query<T>(sql: string, params?: unknown[]) {
      const result = await pool.query(sql, params);
      return result.rows as T[];
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
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
  };
}
