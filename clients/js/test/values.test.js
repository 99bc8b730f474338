/**
 * The value classes against the shared vectors, offline: every ID parses
 * from its input, formats to its text, round-trips its bytes and has the
 * vector's fields, time and bigint; every refused input throws the
 * server's kind of error.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { DEFAULT_EPOCH_MS, Muid, SnowflakeSi, UidError } from '../src/index.js';
import {
  VECTORS_PATH, expectedFields, fieldsOf, fromHex, ids, partsOf, refused, valueOf,
} from './vectors.js';

const hex = (bytes) => Buffer.from(bytes).toString('hex');
const EPOCH_RULE = 'The base clock must be a whole number of milliseconds from ' +
  '2003-03-18 07:20:19.225+00 to 294212-03-08 08:07:07+00.';

describe(`the vectors of ${VECTORS_PATH}`, () => {
  test('has IDs of all five types and refused inputs', () => {
    assert.deepEqual(new Set(ids.map((v) => v.type)),
      new Set(['sno', 'muid', 'snowflake_si', 'revts8', 'uid60']));
    assert.ok(refused.length > 0);
  });

  for (const v of ids) {
    test(`${v.type} ${JSON.stringify(v.options)} ${v.input}`, () => {
      const id = valueOf(v);
      assert.ok(id instanceof v.cls);
      assert.equal(id.toString(), v.text);
      assert.equal(hex(id.toBytes()), v.bytes);
      assert.ok(v.cls.fromBytes(fromHex(v.bytes)).equals(id));
      assert.ok(v.cls.parse(v.text).equals(id));
      assert.equal(v.cls.compare(id, v.cls.parse(v.text)), 0);
      assert.deepEqual(fieldsOf(v, id), expectedFields(v));
      if (v.bigint !== undefined) {
        assert.equal(id.toBigInt(), BigInt(v.bigint));
        assert.ok(v.cls.fromBigInt(BigInt(v.bigint)).equals(id));
      }
      if (v.uuid !== undefined) assert.equal(id.toUuid(), v.uuid);
      // JSON: the text, as the server's to_json() writes it
      assert.equal(JSON.stringify({ id }), JSON.stringify({ id: v.text }));
      assert.ok(v.cls.parse(JSON.parse(JSON.stringify([id]))[0]).equals(id));
      if (v.type === 'snowflake_si') {
        assert.equal(typeof id.value, 'number');
        assert.equal(id.value, Number(v.bigint));
        // the value carries the vector's settings: its getters are the vector's fields
        assert.deepEqual([id.unixMicros, id.machine, id.index], [BigInt(v.unix_us), v.machine, v.index]);
      }
    });

    test(`${v.type} ${JSON.stringify(v.options)} ${v.input}: fromParts and boundary`, () => {
      const id = valueOf(v);
      const args = partsOf(v);
      if (v.type === 'muid' && args[0] === 2n ** 52n - 1n) {
        // the all-ones timestamp is a value but no time the server's muid_from_parts() takes
        for (const call of [() => v.cls.fromParts(...args), () => v.cls.boundary(args[0])]) {
          assert.throws(call, { code: '22008', message: 'timestamp out of range for type muid: "2112-09-17 23:53:47.370495+00"' });
        }
        return;
      }
      const made = v.cls.fromParts(...args);
      assert.ok(made instanceof v.cls);
      assert.equal(made.toString(), v.text);
      assert.deepEqual(fieldsOf(v, made), expectedFields(v));
      // the smallest ID of its time: at or before it, with its time
      const [time, options] = [args[0], v.type === 'snowflake_si' ? v.opts : undefined];
      const boundary = v.cls.boundary(time, options);
      assert.ok(boundary.compareTo(id) <= 0, `${boundary} <= ${id}`);
      assert.equal((options ? boundary.fields(options) : boundary).unixMicros, BigInt(v.unix_us));
    });
  }

  for (const v of refused) {
    test(`refuses ${v.type} ${JSON.stringify(v.input)}`, () => {
      assert.throws(() => v.cls.parse(v.input), (e) => {
        assert.ok(e instanceof UidError);
        assert.match(e.code, /^22(P02|003)$/);
        assert.ok(e.message.endsWith(`for type ${v.type}: "${v.input}"`) ||
          e.message === `value "${v.input}" is out of range for type ${v.type}`, e.message);
        return true;
      });
    });
  }
});

describe('behaviour beyond the vectors', () => {
  test('muid short forms and either case parse to the canonical text', () => {
    assert.equal(Muid.parse('5d5eac793e61f').toString(), '5D5EAC793E61F-00000000000-00000000');
    assert.equal(Muid.parse('5D5EAC793E61F-1bfc71b112d').toString(),
      '5D5EAC793E61F-1BFC71B112D-00000000');
  });

  test('snowflake_si takes white space and leading zeros, and is a number', () => {
    const id = SnowflakeSi.parse(' \t00042\n');
    assert.equal(id.toString(), '42');
    assert.equal(+id, 42);
    assert.equal(id.value, 42);
  });

  test('snowflake_si refuses a bad base clock and index width', () => {
    assert.throws(() => SnowflakeSi.parse('1').fields({ epoch: 0 }), {
      code: '22023',
      message: 'invalid snowflake_si base clock: "1970-01-01 00:00:00+00"',
      detail: EPOCH_RULE,
    });
    assert.throws(() => SnowflakeSi.parse('1').fields({ indexBits: 14 }), {
      code: '22003',
      message: 'value 14 is out of range for argument "index_bits"',
      detail: 'Type snowflake_si takes "index_bits" from 1 to 13.',
    });
  });

  test('a snowflake_si carries the settings it was made with, outside equality and order', () => {
    const opts = { epoch: new Date('2004-01-01T00:00:00Z'), indexBits: 4 };
    const time = new Date('2010-05-06T07:08:09.123Z');
    const made = SnowflakeSi.fromParts(time, 300, 9, opts);
    const plain = SnowflakeSi.parse(made.toString());
    for (const id of [
      made, SnowflakeSi.parse(made.toString(), opts), SnowflakeSi.fromBytes(made.toBytes(), opts),
      SnowflakeSi.fromBigInt(made.toBigInt(), opts), SnowflakeSi.fromNumber(made.value, opts),
      plain.withLayout(opts), plain.withLayout({ epoch: opts.epoch.getTime() }).withLayout({ indexBits: 4 }),
    ]) {
      assert.deepEqual([id.timestamp, id.machine, id.index, id.epoch, id.indexBits],
        [time, 300, 9, opts.epoch, 4]);
      assert.ok(id.equals(plain) && plain.equals(id));
      assert.equal(SnowflakeSi.compare(id, plain), 0);
    }
    assert.deepEqual([plain.epoch.getTime(), plain.indexBits], [DEFAULT_EPOCH_MS, 8]);
    assert.notEqual(plain.machine, 300);
    // fields(options): the options given over the value's own
    assert.deepEqual(made.fields({ indexBits: 8 }), { ...plain.fields({ epoch: opts.epoch }) });
    assert.deepEqual(SnowflakeSi.boundary(time, opts).fields(), { ...made.fields(), machine: 0, index: 0 });
    // a bigint epoch is Unix microseconds, a number milliseconds
    assert.deepEqual(plain.withLayout({ epoch: 1072915200000000n }).epoch, opts.epoch);
    assert.deepEqual(plain.withLayout({ epoch: 1072915200000 }).epoch, opts.epoch);
    // epoch is a new Date each time
    made.epoch.setTime(0);
    assert.deepEqual(made.epoch, opts.epoch);
    assert.throws(() => SnowflakeSi.parse('1', { epoch: 0 }), { code: '22023' });
    assert.throws(() => SnowflakeSi.fromBigInt(1, { indexBits: 0 }), { code: '22003' });
    assert.throws(() => SnowflakeSi.parse('1', 8), TypeError);
  });

  test("snowflake_si's base clocks end where the server's do", () => {
    // 294212-03-08T08:07:07Z, past a Date's range: Unix microseconds
    const last = 9222272525227000000n;
    const refusedAs = (epoch, text) => assert.throws(() => SnowflakeSi.boundary(0n, { epoch }), {
      code: '22023', message: `invalid snowflake_si base clock: "${text}"`, detail: EPOCH_RULE,
    }, text);
    refusedAs(1047972019224000n, '2003-03-18 07:20:19.224+00');
    refusedAs(last + 1000n, '294212-03-08 08:07:07.001+00');
    refusedAs(9224318015999999000n, '294276-12-31 23:59:59.999+00');
    refusedAs(-62135596800000000n - 1000n, '0001-12-31 23:59:59.999+00 BC');
    // the last one's clock runs to the last millisecond of 64-bit microseconds, and back
    const opts = { epoch: last, indexBits: 8 };
    const end = SnowflakeSi.fromParts(2n ** 63n - 1n, 31, 255, opts);
    assert.equal(end.value, 2 ** 53 - 1);
    assert.equal(end.unixMicros, (2n ** 63n - 1n) / 1000n * 1000n);
    assert.equal(String(SnowflakeSi.fromParts(last, 0, 0, opts)), '0');
    assert.equal(String(SnowflakeSi.boundary(last + 1n, opts)), '8192');
    assert.throws(() => SnowflakeSi.fromParts((2n ** 63n - 1n) / 1000n * 1000n + 1000n, 0, 0, opts), {
      code: '22008',
      message: 'timestamp out of range for type snowflake_si: "294247-01-10 04:00:54.776+00"',
      detail: 'The range is 294212-03-08 08:07:07+00 to 294247-01-10 04:00:54.775+00.',
    });
  });

  test('the default base clock is a number, not a shared Date', () => {
    assert.equal(DEFAULT_EPOCH_MS, Date.parse('2024-01-01T00:00:00Z'));
    assert.equal(SnowflakeSi.parse('8192').timestamp.getTime(), DEFAULT_EPOCH_MS + 1);
  });

  test('constructors are closed', () => {
    assert.throws(() => new Muid(), TypeError);
  });

  test('values are immutable', () => {
    const id = Muid.parse('5D5EAC793E61F');
    assert.ok(Object.isFrozen(id));
    const bytes = id.toBytes();
    bytes[0] = 0;
    assert.equal(id.toString(), '5D5EAC793E61F-00000000000-00000000');
  });
});
