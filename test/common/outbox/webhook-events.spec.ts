import 'reflect-metadata';
import type { OpenAPIObject } from '@nestjs/swagger';
import { validate } from 'class-validator';
import { documentRegistryEnums, registryEnum } from '../../../src/common/http/openapi-registry';
import { webhookEventTypes } from '../../../src/common/outbox/webhook-events';
import { RegistryList } from '../../../src/common/validation/fields';
import '../../../src/modules/orders/events'; // the two modules that offer webhook events, loaded as their module files load them
import '../../../src/modules/payments/events';

/**
 * The webhook events each module offers from its own events.ts (src/common/outbox/webhook-events.ts,
 * docs/outbound-webhooks.md "Which events"), and the lazy readers of such a registry: `RegistryList`
 * (validation) and `registryEnum` (the OpenAPI enum, filled when the document is built).
 */
describe('webhook events offered by the modules', () => {
  it('are, with the orders and payments modules loaded, the same events as the list payments kept before, in its order', () => {
    expect(webhookEventTypes()).toEqual(['order.placed', 'order.approved', 'order.rejected', 'order.scheduled', 'order.delivered', 'order.completed', 'order.cancelled', 'payment_transaction.recorded']);
  });
});

describe('a registry read lazily', () => {
  const registry: string[] = ['a.created'];
  const values = () => registry;

  class Body {
    @RegistryList(values)
    events: unknown;
  }
  const errors = async (events: unknown) => {
    const b = Object.assign(new Body(), { events });
    return (await validate(b)).flatMap((e) => Object.values(e.constraints ?? {}));
  };

  it('validates against the values registered when the request comes, not when the class was declared', async () => {
    expect(await errors(['b.created'])).toEqual(['each value must be one of a.created']);
    registry.push('b.created'); // a module loaded after the DTO's file
    expect(await errors(['b.created'])).toEqual([]);
    expect(await errors(['a.created', 'b.created'])).toEqual([]);
    expect(await errors(['a.created', 'a.created', 'a.created'])).toEqual(['events must contain no more than 2 elements']);
    expect(await errors([])).toEqual(['events should not be empty']);
    expect(await errors('a.created')).toContain('events must be an array');
    expect(await errors(['c.created', 7])).toEqual(['each value must be one of a.created, b.created']);
    registry.pop();
  });

  it('fills the OpenAPI enum when the document is built, and refuses a mark it cannot fill', () => {
    const mark = registryEnum('test-registry', values);
    expect(mark.type).toEqual([String]);
    const list = () => ({ type: 'array', items: { type: 'string' }, ...Object.fromEntries(Object.entries(mark).filter(([k]) => k.startsWith('x-'))) });
    const doc = { paths: {}, components: { schemas: { Body: { type: 'object', properties: { events: list() } } } } } as unknown as OpenAPIObject;
    registry.push('b.created');
    documentRegistryEnums(doc);
    expect(doc.components!.schemas!.Body).toEqual({ type: 'object', properties: { events: { type: 'array', items: { type: 'string', enum: ['a.created', 'b.created'] }, maxItems: 2 } } });
    registry.pop();
    expect(() => registryEnum('test-registry', () => [])).toThrow(/another registry has that name/);
    const unknown = { paths: {}, components: { schemas: { X: { type: 'array', 'x-registry-enum': 'nope' } } } } as unknown as OpenAPIObject;
    expect(() => documentRegistryEnums(unknown)).toThrow(/x-registry-enum nope names no registry/);
    const notAList = { paths: {}, components: { schemas: { X: { type: 'string', 'x-registry-enum': 'test-registry' } } } } as unknown as OpenAPIObject;
    expect(() => documentRegistryEnums(notAList)).toThrow(/not a list/);
  });
});
