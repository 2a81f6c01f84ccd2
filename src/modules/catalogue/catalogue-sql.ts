/**
 * SQL for other modules' reads: the names of a specification and a waste type by the id in a column
 * (scalar subqueries, soft-deleted rows included: orders keep showing what they were placed with).
 * The catalogue owns these tables, so a change to them is made here, not in each reader.
 */
/** @deprecated SQL naming the catalogue's tables in another module's statement (issue #24): read the names with `CustomerCatalogueService#names(specIds, wasteTypeIds)` (one statement for a page, soft-deleted rows included). */
export function specificationNameSql(idColumn: string): string {
  return `(SELECT s.name FROM asset_specifications s WHERE s.id = ${idColumn})`;
}

/** @deprecated SQL naming the catalogue's tables in another module's statement (issue #24): read the names with `CustomerCatalogueService#names(specIds, wasteTypeIds)` or `WasteTypesService#refs(ids)` (one statement for a page, soft-deleted rows included). */
export function wasteTypeNameSql(idColumn: string): string {
  return `(SELECT w.name FROM waste_types w WHERE w.id = ${idColumn})`;
}
