import type { Abstract, DynamicModule, ForwardReference, Provider, Type } from '@nestjs/common';

/**
 * A part of a feature module (its controllers, providers, what it imports and exports), so that a module
 * with several parts (payments, communication) lists each in its own file and composes them with
 * `composeModule`.
 */
export interface ModuleGroup {
  imports: (Type | DynamicModule | ForwardReference)[];
  controllers: Type[];
  providers: Provider[];
  exports: (Type | Abstract<unknown> | string | symbol)[];
}

/** The `@Module` metadata of several groups together. */
export function composeModule(...groups: ModuleGroup[]): ModuleGroup {
  return {
    imports: [...new Set(groups.flatMap((g) => g.imports))],
    controllers: groups.flatMap((g) => g.controllers),
    providers: groups.flatMap((g) => g.providers),
    exports: groups.flatMap((g) => g.exports),
  };
}
