import { CallerMemory } from '../../../src/common/access/caller-changes';
import type { Actor } from '../../../src/common/access/actor';

const HOUR = 3_600_000;
let n = 0;
function actor(over: Partial<Actor> = {}): Actor {
  n++;
  return {
    kind: 'user',
    id: `user-${n}`,
    type: 'company',
    name: 'Owner',
    email: `o${n}@example.test`,
    status: 'active',
    companyId: 'co-1',
    companyStatus: 'active',
    companyTimezone: 'UTC',
    hasRoleRecord: true,
    jti: `jti-${n}`,
    tokenExpiresAt: new Date(Date.now() + HOUR),
    ...over,
  };
}
const claimsOf = (a: Actor) => ({ jti: a.jti, sub: a.id, typ: a.type });

describe('CallerMemory (the callers an instance keeps between change notices)', () => {
  it('keeps a caller read since the generation was taken, and answers it for the same claims only', () => {
    const m = new CallerMemory();
    const a = actor();
    m.keep(a, 'co-1', m.generation);
    expect(m.get(claimsOf(a))).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(m.get({ ...claimsOf(a), sub: 'someone-else' })).toBeUndefined();
    // A mismatch drops it: the token names another subject than the one read.
    expect(m.has(a.jti)).toBe(false);
  });

  it('does not keep a caller whose read overlapped a drop (its row may predate the change)', () => {
    const m = new CallerMemory();
    const a = actor();
    const generation = m.generation;
    m.drop('user:someone');
    m.keep(a, 'co-1', generation);
    expect(m.has(a.jti)).toBe(false);
  });

  it('answers nothing for a token that has expired since', () => {
    const m = new CallerMemory();
    const a = actor({ tokenExpiresAt: new Date(Date.now() + 1000) });
    m.keep(a, 'co-1', m.generation);
    expect(m.get(claimsOf(a), Date.now() + 1000)).toBeUndefined();
  });

  it('drops what each notice names, and everything on an unknown one', () => {
    const m = new CallerMemory();
    const [t1, t2, u, c, other, admin] = [actor(), actor(), actor(), actor({ companyId: null }), actor({ companyId: 'co-2' }), actor({ kind: 'admin', type: 'admin', companyId: null })];
    const keepAll = () => {
      for (const x of [t1, t2, u, c, other, admin]) m.keep(x, x === c ? 'co-1' : x === other ? 'co-2' : x === admin ? null : 'co-1', m.generation);
    };
    keepAll();
    m.drop(`token:${t1.jti}`);
    expect([t1, t2].map((x) => m.has(x.jti))).toEqual([false, true]);
    m.drop(`user:${u.id}`);
    expect(m.has(u.jti)).toBe(false);
    // A user whose company is gone has no company in its actor: the user row's company is what a notice names.
    m.drop('company:co-1');
    expect([t2, c, other, admin].map((x) => m.has(x.jti))).toEqual([false, false, true, true]);
    m.drop(`admin:${admin.id}`);
    expect(m.has(admin.jti)).toBe(false);
    // An administrator's id never matches a user notice, nor a user's an admin notice.
    keepAll();
    m.drop(`user:${admin.id}`);
    expect(m.has(admin.jti)).toBe(true);
    m.drop('*');
    expect(m.size).toBe(0);
    keepAll();
    m.drop('something-new');
    expect(m.size).toBe(0);
  });

  it('every drop moves the generation on', () => {
    const m = new CallerMemory();
    const g = m.generation;
    m.drop('token:nobody');
    m.clear();
    expect(m.generation).toBe(g + 2);
  });
});
