import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { ApiError } from './api-error';
import { Page, PageMeta } from './envelope';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
/** Pages beyond it are refused (422): the offset stays a small integer for the database. */
export const MAX_PAGE = 1_000_000;

/** Query parameters shared by every list: `page`, `per_page`, `sort`, `q`. Extend it for filters. */
export class PageQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PER_PAGE)
  per_page?: number;

  @ApiPropertyOptional({ description: 'Field to sort by, `-` prefix for descending (e.g. `-created_at`).' })
  @IsOptional()
  @IsString()
  @Matches(/^-?[a-z_]+$/)
  sort?: string;

  @ApiPropertyOptional({ description: 'Text search.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;
}

export function pageMeta(total: number, query: PageQuery): PageMeta {
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  return { page: query.page ?? 1, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) };
}

/**
 * Applies `sort` (only among `sortable`: API name → SQL expression; the tiebreak `id` follows the
 * sort's direction, so one ascending index serves both), offset/limit, and counts in SQL.
 * `map` turns entities into response objects; `mapRaw` (a query without joins only: one raw row per
 * entity) also gets the row's raw columns, for values added with `addSelect` (names from other
 * modules' SQL, aggregates), so that a page is one statement.
 * `count` replaces the default exact `COUNT(DISTINCT id)` by a cheaper exact count (e.g. from a
 * counter table).
 */
export async function paginate<E extends ObjectLiteral, R = E>(
  qb: SelectQueryBuilder<E>,
  query: PageQuery,
  options: { sortable?: Record<string, string>; defaultSort?: string; map?: (e: E) => R; mapRaw?: (e: E, raw: Record<string, unknown>) => R; count?: () => Promise<number> } = {},
): Promise<Page<R>> {
  const sortable = options.sortable ?? { created_at: `${qb.alias}.createdAt` };
  const sort = query.sort ?? options.defaultSort ?? '-created_at';
  const desc = sort.startsWith('-');
  const key = desc ? sort.slice(1) : sort;
  const column = sortable[key];
  if (!column) {
    throw ApiError.validation({ sort: [`must be one of ${Object.keys(sortable).flatMap((k) => [k, '-' + k]).join(', ')}`] });
  }
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  const page = query.page ?? 1;
  qb.orderBy(column, desc ? 'DESC' : 'ASC').addOrderBy(`${qb.alias}.id`, desc ? 'DESC' : 'ASC');
  qb.skip((page - 1) * perPage).take(perPage);
  const { map, mapRaw } = options;
  if (mapRaw) {
    if (qb.expressionMap.joinAttributes.length) throw new Error('paginate: mapRaw needs a query without joins (one raw row per entity).');
    const { entities, raw } = await qb.getRawAndEntities();
    const total = (page - 1) * perPage + entities.length;
    const last = entities.length > 0 && entities.length < perPage; // a short page is the last one: its total is known
    return new Page(
      entities.map((e, i) => mapRaw(e, raw[i])),
      pageMeta(last ? total : options.count ? await options.count() : await qb.getCount(), query),
    );
  }
  const [rows, total] = options.count ? [await qb.getMany(), await options.count()] : await qb.getManyAndCount();
  return new Page(map ? rows.map(map) : (rows as unknown as R[]), pageMeta(total, query));
}

/**
 * The exact number of rows of a list query (its filters; no order, no page) as a plain `count(*)`:
 * cheaper than TypeORM's `COUNT(DISTINCT id)`, and right for a query without joins.
 */
export async function countRows<E extends ObjectLiteral>(qb: SelectQueryBuilder<E>): Promise<number> {
  const row = await qb.clone().orderBy().skip(undefined).take(undefined).select('count(*)::int', 'n').getRawOne<{ n: number }>();
  return row?.n ?? 0;
}

/** Escapes `%`, `_` and `\` for an ILIKE pattern. */
export function likePattern(text: string): string {
  return '%' + text.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
}
