import { BoundedMap } from '../../src/common/bounded-map';

describe('BoundedMap', () => {
  it('forgets the entry inserted first when a new key comes to a full map', () => {
    const m = new BoundedMap<string, number>(3);
    m.set('a', 1).set('b', 2).set('c', 3);
    m.set('d', 4);
    expect([...m.keys()]).toEqual(['b', 'c', 'd']);
    expect(m.get('a')).toBeUndefined();
  });

  it('replacing a kept key forgets nothing', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1).set('b', 2);
    m.set('a', 10);
    expect([...m.entries()]).toEqual([
      ['a', 10],
      ['b', 2],
    ]);
  });

  it('never holds more than its limit', () => {
    const m = new BoundedMap<number, number>(100);
    for (let i = 0; i < 1000; i++) m.set(i, i);
    expect(m.size).toBe(100);
    expect(m.has(899)).toBe(false);
    expect(m.has(900)).toBe(true);
  });
});
