import pg from 'pg';

/**
 * A comparable description of a database's public schema, read from the catalogs:
 * enums, columns, constraints and indexes, each keyed by name with its definition.
 */
export type SchemaDescription = Map<string, string>;

export async function describeSchema(url: string): Promise<SchemaDescription> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const out: SchemaDescription = new Map();
    const enums = await client.query<{ name: string; labels: string }>(`
      SELECT t.typname AS name, string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS labels
      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = 'public' GROUP BY t.typname`);
    for (const r of enums.rows) out.set(`enum ${r.name}`, r.labels);
    const cols = await client.query<{
      t: string;
      c: string;
      type: string;
      nullable: string;
      def: string | null;
    }>(`
      SELECT table_name AS t, column_name AS c,
             CASE WHEN data_type = 'USER-DEFINED' THEN udt_name ELSE data_type END
               || COALESCE('(' || datetime_precision || ')', '') AS type,
             is_nullable AS nullable, column_default AS def
      FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`);
    for (const r of cols.rows)
      out.set(`column ${r.t}.${r.c}`, `${r.type} null=${r.nullable} default=${r.def ?? ''}`);
    const cons = await client.query<{ t: string; name: string; def: string }>(`
      SELECT rel.relname AS t, con.conname AS name, pg_get_constraintdef(con.oid) AS def
      FROM pg_constraint con JOIN pg_class rel ON rel.oid = con.conrelid JOIN pg_namespace n ON n.oid = rel.relnamespace
      WHERE n.nspname = 'public' AND rel.relname <> '_prisma_migrations'`);
    for (const r of cons.rows) out.set(`constraint ${r.t}.${r.name}`, r.def);
    const idx = await client.query<{ name: string; def: string }>(`
      SELECT indexname AS name, indexdef AS def FROM pg_indexes
      WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`);
    for (const r of idx.rows) out.set(`index ${r.name}`, r.def);
    return out;
  } finally {
    await client.end();
  }
}

export interface SchemaDiff {
  /** In the expected schema but missing or different in the actual one. */
  missingOrDifferent: string[];
  /** In the actual schema only. */
  extra: string[];
}

export function diffSchemas(expected: SchemaDescription, actual: SchemaDescription): SchemaDiff {
  const missingOrDifferent: string[] = [];
  for (const [k, v] of expected) {
    const got = actual.get(k);
    if (got === undefined) missingOrDifferent.push(`${k}: missing (expected ${v})`);
    else if (got !== v) missingOrDifferent.push(`${k}: expected ${v}, got ${got}`);
  }
  const extra = [...actual.keys()].filter((k) => !expected.has(k)).sort();
  return { missingOrDifferent, extra };
}
