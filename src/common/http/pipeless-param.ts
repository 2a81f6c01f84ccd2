import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouterExecutionContext } from '@nestjs/core/router/router-execution-context.js';

/** The param types (Nest's `<uid>__customRouteArgs__`) of the decorators made by `pipelessParam`. */
const PIPELESS = new Set<string>();

/**
 * Nest runs the global pipes on every custom parameter (`isPipeable`: any custom type), each through its
 * own chain of promises, although the one global pipe (the ValidationPipe, `validateCustomDecorators`
 * off) hands a custom value back untouched: about a tenth of what a short request allocated
 * (docs/performance.md). A parameter of a decorator made here is taken as its factory returns it, as
 * `@Req()` is. Every other parameter (body, query, path, and any other custom decorator) is piped as before.
 */
function skipPipesOnPipelessParams(): void {
  const proto = RouterExecutionContext.prototype as unknown as { isPipeable(type: unknown): boolean; __pipeless?: true };
  if (proto.__pipeless) return;
  const isPipeable = proto.isPipeable;
  if (typeof isPipeable !== 'function') throw new Error('RouterExecutionContext#isPipeable is gone: see src/common/http/pipeless-param.ts');
  proto.isPipeable = function (this: unknown, type: unknown): boolean {
    return typeof type === 'string' && PIPELESS.has(type) ? false : isPipeable.call(this, type);
  };
  proto.__pipeless = true;
}

/**
 * A parameter decorator whose value is what `factory` returns for the request (what the access guard
 * resolved: the caller, its scope, its profile; the client's address), with no pipe: it takes neither pipes
 * nor, through the global ValidationPipe, validation (which is off for custom decorators anyway). `factory`
 * gets the decorator's data, if any, and the request.
 */
export function pipelessParam<T, R = unknown>(factory: (data: unknown, req: R) => T): (data?: unknown) => ParameterDecorator {
  // The request is the context's first argument (what `switchToHttp().getRequest()` reads, without the three
  // closures that call adds to the context each time).
  const decorator = createParamDecorator((data: unknown, ctx: ExecutionContext) => factory(data, ctx.getArgByIndex<R>(0)));
  // The decorator's param type: Nest's metadata key of a parameter it decorates, `<type>:<index>`.
  class Probe {
    method(_value: unknown): void {}
  }
  decorator()(Probe.prototype, 'method', 0);
  const keys = Object.keys((Reflect.getMetadata(ROUTE_ARGS_METADATA, Probe, 'method') ?? {}) as object);
  if (keys.length !== 1) throw new Error('pipelessParam: cannot read the decorator\'s param type');
  PIPELESS.add(keys[0].split(':')[0]);
  skipPipesOnPipelessParams();
  return (data?: unknown) => decorator(data);
}
