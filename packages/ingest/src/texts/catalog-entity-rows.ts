// Where the builders after the tables (the texts files, the search index, the works' vectors and tagger) read
// a catalog's entity rows: its entity files (format 8 and before), or its serving database (format 9, where
// the tables are kept alone), attached to the builder's session.
import { join } from 'node:path'
import { catalogTableRelations, SERVING_DATABASE_NAME, tablesInServingDatabase } from '@oqlkit/adapter-duckdb'
import {
  type CatalogEntity,
  type CatalogManifest,
  constantLiteral,
  SERVING_DATABASE_FILE,
} from '@oqlkit/catalog'
import type { BuildSession } from './build-session.ts'

/**
 * The column of `CatalogEntityRows.of` giving each row's place in id order: ascending with the ids, with gaps
 * where a serving database changed in place deleted rows, so a reader pages by ranges of it.
 */
export const ROW_POSITION_COLUMN = '__position'

export interface CatalogEntityRows {
  /** The entity's rows, every column of its table and `ROW_POSITION_COLUMN`, as a relation of the session. */
  readonly of: (entity: CatalogEntity) => string
}

/**
 * The entity rows of the catalog at `catalogDir` (its `catalog.json` is `manifest`) for `session`, attaching
 * its serving database to the session, read-only, when its tables are kept there.
 */
export async function openCatalogEntityRows(
  session: Pick<BuildSession, 'run' | 'rows'>,
  catalogDir: string,
  manifest: CatalogManifest,
): Promise<CatalogEntityRows> {
  if (tablesInServingDatabase(manifest)) {
    const [attached] = await session.rows(
      'SELECT count(*) AS n FROM duckdb_databases() WHERE database_name = $1',
      [SERVING_DATABASE_NAME],
    )
    if (Number(attached?.n ?? 0) === 0)
      await session.run(
        `ATTACH ${constantLiteral(join(catalogDir, SERVING_DATABASE_FILE))} AS ${SERVING_DATABASE_NAME} (READ_ONLY)`,
      )
  }
  const relations = catalogTableRelations(catalogDir, manifest, {
    ordered: false,
    position: ROW_POSITION_COLUMN,
  })
  return { of: (entity) => relations.entity(entity) }
}
