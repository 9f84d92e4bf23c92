import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

/**
 * The column as a spreadsheet may show it: a cell it would run as a formula (starting with
 * = + - @ tab or CR) gets an apostrophe in front (OWASP CSV injection).
 */
export const spreadsheetSafe = (col: string) =>
  `CASE WHEN ${col} ~ '^[=+\\-@\\t\\r]' THEN '''' || ${col} ELSE ${col} END`;

/**
 * Streams the rows of `select` as CSV into `out` through PostgreSQL's COPY, so memory stays
 * flat at any size: a UTF-8 BOM for spreadsheets, a header of the column names, every cell
 * quoted. COPY takes no parameters: `select` is built with the connection, whose
 * `escapeLiteral` writes values in as literals by the server's rules.
 */
export async function copyCsv(
  pool: pg.Pool,
  select: (client: pg.PoolClient) => string,
  out: Writable,
): Promise<void> {
  const client = await pool.connect();
  let failed = false;
  try {
    const copy = client.query(
      copyTo(`COPY (${select(client)}) TO STDOUT WITH (FORMAT csv, HEADER true, FORCE_QUOTE *)`),
    );
    out.write('\uFEFF');
    await pipeline(copy, out);
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    // A COPY cut short (the client went away) leaves the connection mid-protocol: drop it.
    client.release(failed ? true : undefined);
  }
}
