import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Router } from 'express';

/** The parts of the `router` package's layers and routers this file uses. */
interface Layer {
  route?: { path: string; _handlesMethod(method: string): boolean };
}
type RouterFn = ((req: unknown, res: unknown, next: (err?: unknown) => void) => void) & { stack: Layer[] };
interface RouterOptions {
  caseSensitive?: boolean;
  strict?: boolean;
}

/** How many leading path segments pick a route's group: `/api/v1/order` for `/api/v1/order/:order`. */
const KEY_SEGMENTS = 3;

/** A path's group key: its first segments, lower-cased unless routing is case-sensitive; null when one of them is not literal. */
export function keyOf(path: string, caseSensitive: boolean): string | null {
  if (path.charCodeAt(0) !== 0x2f) return keyBySegments(path, caseSensitive);
  // The path up to its (KEY_SEGMENTS + 1)th slash, without trailing slashes: what keyBySegments gives, without
  // splitting the whole path (it runs twice per request).
  let end = 0;
  for (let n = 0; n < KEY_SEGMENTS && end !== -1; n++) end = path.indexOf('/', end + 1);
  let key = end === -1 ? path : path.slice(0, end);
  while (key.length > 1 && key.charCodeAt(key.length - 1) === 0x2f) key = key.slice(0, -1);
  if (key === '/' || /[:*?(){}\\]/.test(key)) return key === '/' ? key : null;
  return caseSensitive ? key : key.toLowerCase();
}

/** keyOf by splitting the path into segments (the definition; any path). */
export function keyBySegments(path: string, caseSensitive: boolean): string | null {
  const segments = path.split('/', KEY_SEGMENTS + 1).slice(1);
  while (segments.length && segments[segments.length - 1] === '') segments.pop();
  if (segments.some((s) => /[:*?(){}\\]/.test(s))) return null;
  const key = `/${segments.join('/')}`;
  return caseSensitive ? key : key.toLowerCase();
}

/**
 * Express tries a router's layers one after the other: a request for the 385th of the app's 400 routes
 * tested 384 path patterns first (10 % of the order read's CPU; docs/performance.md). This replaces each
 * run of route layers in `router`'s stack with one layer that picks, by the request path's first three
 * segments, a router holding only the routes of that run that can match such a path, in their order;
 * a route with a parameter or a pattern among its first three segments is in every group (and alone in
 * the group of any other path). What answers a request is unchanged: the same routes in the same order,
 * the same handlers, parameters, 404s and HEAD answers; an OPTIONS request reaches only the routes that
 * answer OPTIONS themselves (the app's 404 handler answers the others, as before).
 */
export function indexRoutes(router: RouterFn, options: RouterOptions = {}): { groups: number; routes: number } {
  const caseSensitive = options.caseSensitive === true;
  const stack: Layer[] = [];
  let groups = 0;
  let routes = 0;
  for (let i = 0; i < router.stack.length; ) {
    if (!router.stack[i].route) {
      stack.push(router.stack[i++]);
      continue;
    }
    const run: Layer[] = [];
    while (i < router.stack.length && router.stack[i].route) run.push(router.stack[i++]);
    routes += run.length;
    const routerOf = (layers: Layer[]): RouterFn => Object.assign(Router(options) as unknown as RouterFn, { stack: layers });
    const keyed = run.map((layer) => ({ layer, key: keyOf(layer.route!.path, caseSensitive) }));
    // A group: the routes of its key and those with no key (a parameter among the first segments), in their order.
    const byKey = new Map<string, RouterFn>();
    for (const { key } of keyed) if (key !== null && !byKey.has(key)) byKey.set(key, routerOf(keyed.filter((k) => k.key === key || k.key === null).map((k) => k.layer)));
    const rest = routerOf(keyed.filter((k) => k.key === null).map((k) => k.layer));
    // OPTIONS: only the routes that answer it themselves. A router answers an OPTIONS request that none of its
    // routes handles with the methods of those that match (Allow), which the app's router never does (Nest's 404
    // handler comes first): a group router must not either.
    const optionsOnly = routerOf(run.filter((l) => l.route!._handlesMethod('OPTIONS')));
    groups += byKey.size;
    const dispatch = Router(options) as unknown as RouterFn & { use: (fn: unknown) => void };
    dispatch.use(function routeIndex(req: { path?: string; url?: string; method?: string }, res: unknown, next: (err?: unknown) => void) {
      const path = req.path ?? req.url ?? '/';
      const key = req.method === 'OPTIONS' ? null : keyOf(path, caseSensitive);
      const group = req.method === 'OPTIONS' ? optionsOnly : key === null ? rest : (byKey.get(key) ?? rest);
      // A group with no route (the documentation's run, for an API path) passes the request on at once: an empty
      // router would answer the same, a turn of the event loop later (its `setImmediate`), after a router's setup.
      if (group.stack.length === 0) return next();
      group(req, res, next);
    });
    stack.push(dispatch.stack[0]);
  }
  router.stack = stack;
  return { groups, routes };
}

/** Indexes the Express app's routes once Nest has registered them (and its 404 and error handlers). */
@Injectable()
export class RouteIndex implements OnApplicationBootstrap {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const app = this.adapterHost.httpAdapter?.getInstance?.() as { router?: RouterFn; enabled?: (s: string) => boolean } | undefined;
    if (!app?.router || typeof app.enabled !== 'function') return;
    indexRoutes(app.router, { caseSensitive: app.enabled('case sensitive routing'), strict: app.enabled('strict routing') });
  }
}
