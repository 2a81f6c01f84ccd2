import { Param, PipeTransform } from '@nestjs/common';
import { ApiParam, DECORATORS } from '@nestjs/swagger';
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

/**
 * `@IdParam('order') id: string` reads a UUID path parameter (404 when malformed) and documents it as
 * a `uuid` (`@ApiIdParam` adds a description).
 */
export const IdParam =
  (name: string): ParameterDecorator =>
  (target, key, index) => {
    Param(name, new UuidOr404Pipe())(target, key, index);
    const descriptor = key === undefined ? undefined : Object.getOwnPropertyDescriptor(target, key);
    if (descriptor) ApiParam({ name, format: 'uuid', type: String })(target, key!, descriptor);
  };

/** Documents a UUID path parameter, with a description (the parameter `@IdParam` already declared, or a new one). */
export const ApiIdParam =
  (name: string, description?: string): MethodDecorator =>
  (target, key, descriptor) => {
    const declared = (Reflect.getMetadata(DECORATORS.API_PARAMETERS, descriptor.value as object) ?? []) as { in?: string; name?: string; description?: string }[];
    const existing = declared.find((p) => p.in === 'path' && p.name === name);
    if (!existing) return ApiParam({ name, format: 'uuid', type: String, description })(target, key, descriptor);
    if (description) existing.description = description;
    return descriptor;
  };
