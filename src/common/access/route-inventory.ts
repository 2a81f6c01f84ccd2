import { INestApplication, RequestMethod } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { ACCESS_METADATA, EXTENSION_METADATA } from './access.decorator';
import { AccessCode } from './access-codes';

export interface MountedRoute {
  method: string;
  /** Seed style: `/api/v1/order/{order}`. */
  path: string;
  access: AccessCode | undefined;
  handler: string;
  /** Why the route exists, when `@Extension(why)` declares it an extension of the seed. */
  extension?: string;
}

/** Routes registered on the HTTP adapter outside controllers (Swagger UI and its JSON). */
export const ADAPTER_ROUTES: MountedRoute[] = [
  { method: 'GET', path: '/api/documentation', access: 'NONE', handler: 'SwaggerModule' },
  { method: 'GET', path: '/api/documentation-json', access: 'NONE', handler: 'SwaggerModule' },
];

const PATH_METADATA = 'path';
const METHOD_METADATA = 'method';

const join = (...parts: string[]) => '/' + parts.flatMap((p) => p.split('/')).filter(Boolean).join('/');

/** Every route the application serves, with the access code its `@Access` declares. */
export function mountedRoutes(app: INestApplication): MountedRoute[] {
  const discovery = app.get(DiscoveryService);
  const scanner = app.get(MetadataScanner);
  const routes: MountedRoute[] = [...ADAPTER_ROUTES];
  for (const wrapper of discovery.getControllers()) {
    const type = wrapper.metatype as (new (...args: unknown[]) => unknown) | undefined;
    if (!type) continue;
    const base: string | string[] = Reflect.getMetadata(PATH_METADATA, type) ?? '/';
    const classAccess: AccessCode | undefined = Reflect.getMetadata(ACCESS_METADATA, type);
    for (const name of scanner.getAllMethodNames(type.prototype)) {
      const handler = (type.prototype as Record<string, unknown>)[name] as object;
      const sub: string | string[] | undefined = Reflect.getMetadata(PATH_METADATA, handler);
      const verb: RequestMethod | undefined = Reflect.getMetadata(METHOD_METADATA, handler);
      if (sub === undefined || verb === undefined) continue;
      const access: AccessCode | undefined = Reflect.getMetadata(ACCESS_METADATA, handler) ?? classAccess;
      const extension: string | undefined = Reflect.getMetadata(EXTENSION_METADATA, handler);
      for (const b of [base].flat()) {
        for (const s of [sub].flat()) {
          routes.push({
            method: RequestMethod[verb],
            path: join(b, s).replace(/:(\w+)/g, '{$1}'),
            access,
            handler: `${type.name}.${name}`,
            ...(extension ? { extension } : {}),
          });
        }
      }
    }
  }
  return routes;
}
