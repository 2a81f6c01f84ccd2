import { Param, PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import { ApiError } from './api-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);

/** A malformed id is indistinguishable from an absent one: 404. */
export class UuidOr404Pipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isUuid(value)) throw ApiError.notFound();
    return value.toLowerCase();
  }
}

/** `@IdParam('order') id: string` reads a UUID path parameter (404 when malformed). */
export const IdParam = (name: string) => Param(name, new UuidOr404Pipe());

/** Documents a UUID path parameter. */
export const ApiIdParam = (name: string, description?: string) =>
  applyDecorators(ApiParam({ name, format: 'uuid', description }));
