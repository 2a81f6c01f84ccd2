import { randomUUID } from 'node:crypto';
import { hotQueryAndParameters } from '../../src/database/prepared-query';
import { CompanySettings } from '../../src/modules/companies/company-admin.entity';
import { Company } from '../../src/modules/companies/company.entity';
import { Order } from '../../src/modules/orders/order.entity';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

/**
 * A hot builder's SQL text is built once per call site and shape (src/database/prepared-query.ts
 * `hotQueryAndParameters`): the same shape with other values gives TypeORM's own text and parameters, another
 * shape its own text, and under jest a kept text that differs from a fresh build throws.
 */
describe('hot query builders: the text kept per shape', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const companyWithSettings = (id: string) =>
    t.ds.getRepository(Company).createQueryBuilder('c').leftJoinAndMapOne('c.settingsRow', CompanySettings, 's', 's.companyId = c.id').where('c.id = :companyId', { companyId: id });
  const orders = (company: string, statuses: string[] | null, customer?: string) => {
    const qb = t.ds.getRepository(Order).createQueryBuilder('o').where('o.companyId = :company', { company });
    if (statuses) qb.andWhere('o.status IN (:...statuses)', { statuses });
    if (customer) qb.andWhere({ customerId: customer });
    return qb.orderBy('o.createdAt', 'DESC').take(20);
  };

  it("gives TypeORM's own text and parameters for every shape, whatever the values", () => {
    const builders = [
      () => companyWithSettings(randomUUID()),
      () => orders(randomUUID(), null),
      () => orders(randomUUID(), ['pending']),
      () => orders(randomUUID(), ['pending', 'approved', 'scheduled']),
      () => orders(randomUUID(), ['pending'], randomUUID()),
      () => orders(randomUUID(), null, randomUUID()).setLock('pessimistic_write'),
      () => orders(randomUUID(), null).withDeleted(),
    ];
    for (let round = 0; round < 3; round++) {
      for (const build of builders) {
        const qb = build();
        const [text, params] = hotQueryAndParameters('test_hot', qb);
        expect([text, params]).toEqual(qb.getQueryAndParameters());
      }
    }
    // Another condition is another text (the IN list's length is a parameter expansion, applied afterwards).
    expect(hotQueryAndParameters('test_hot', orders(randomUUID(), null))[0]).not.toBe(hotQueryAndParameters('test_hot', orders(randomUUID(), null, randomUUID()))[0]);
  });

  it('throws when a kept text differs from a fresh build (a shape its key does not describe)', () => {
    hotQueryAndParameters('test_hot_verify', companyWithSettings(randomUUID()));
    const odd = companyWithSettings(randomUUID());
    odd.getQuery = () => 'SELECT 1';
    expect(() => hotQueryAndParameters('test_hot_verify', odd)).toThrow(/kept text differs/);
  });
});
