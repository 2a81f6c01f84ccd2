import type { OpenAPIObject } from '@nestjs/swagger';

const MARK = 'x-registry-enum';
const registries = new Map<string, () => readonly string[]>();

/**
 * `@ApiProperty` options of a list of values taken from a registry that modules fill when their files are
 * imported (the webhook events, src/common/outbox/webhook-events.ts). A decorator's options are evaluated
 * when its class is declared, maybe before a module that registers values is loaded, so the property
 * carries a mark (`x-registry-enum: <name>`) and `buildOpenApiDocument` replaces it once the app, i.e.
 * every module, is loaded: the list gets `items.enum` and `maxItems` (the number of values). Validate the
 * same property with `RegistryList` (src/common/validation/fields.ts).
 */
export function registryEnum(name: string, values: () => readonly string[]): { type: [StringConstructor] } {
  const known = registries.get(name);
  if (known && known !== values) throw new Error(`registryEnum ${name}: another registry has that name`);
  registries.set(name, values);
  return { type: [String], [MARK]: name } as { type: [StringConstructor] };
}

/** Fills every marked schema of the document with its registry's values (see `registryEnum`). */
export function documentRegistryEnums(doc: OpenAPIObject): void {
  const stack: unknown[] = [doc.components, doc.paths];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === 'object') {
      const s = v as Record<string, unknown> & { items?: Record<string, unknown> };
      const name = s[MARK];
      if (typeof name === 'string') {
        const values = registries.get(name);
        if (!values) throw new Error(`OpenAPI: ${MARK} ${name} names no registry`);
        delete s[MARK];
        if (s.type !== 'array') throw new Error(`OpenAPI: ${MARK} ${name} marks a schema that is not a list`);
        Object.assign(s, { items: { ...s.items, type: 'string', enum: [...values()] }, maxItems: values().length });
      }
      stack.push(...Object.values(s));
    }
  }
}
