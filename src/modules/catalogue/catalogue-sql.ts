/**
 * SQL for other modules' reads: the names of a specification and a waste type by the id in a column
 * (scalar subqueries, soft-deleted rows included: orders keep showing what they were placed with).
 * The catalogue owns these tables, so a change to them is made here, not in each reader.
 */
export function specificationNameSql(idColumn: string): string {
  return `(SELECT s.name FROM asset_specifications s WHERE s.id = ${idColumn})`;
}

export function wasteTypeNameSql(idColumn: string): string {
  return `(SELECT w.name FROM waste_types w WHERE w.id = ${idColumn})`;
}
