/**
 * What the driver adapters share: the catalog query for the OIDs of the
 * five types (their OIDs differ from database to database: they are made
 * by CREATE EXTENSION), and the text and binary parsers of their arrays.
 *
 * Internal: the adapters export what users need.
 */
import { InvalidBinaryRepresentation } from './errors.js';
import { TYPES } from './registry.js';

/**
 * The five types of the extension uid in the current database, each with
 * its OID and its array type's OID; the types are found through the
 * extension's membership (pg_depend), so a type of the same name in
 * another schema is never taken.
 */
export const TYPE_OIDS_SQL = `
SELECT t.typname::text AS typname, t.oid::int AS oid, t.typarray::int AS array_oid
FROM pg_catalog.pg_extension e
JOIN pg_catalog.pg_depend d
  ON d.refclassid = 'pg_catalog.pg_extension'::regclass AND d.refobjid = e.oid
 AND d.classid = 'pg_catalog.pg_type'::regclass AND d.deptype = 'e'
JOIN pg_catalog.pg_type t ON t.oid = d.objid
WHERE e.extname = 'uid' AND t.typname IN ('sno', 'muid', 'snowflake_si', 'revts8', 'uid60')`;

/**
 * @typedef {{ oid: number, arrayOid: number }} TypeOids
 * @typedef {Record<'sno' | 'muid' | 'snowflake_si' | 'revts8' | 'uid60', TypeOids>} UidTypeOids
 */

/**
 * The OIDs of the rows of TYPE_OIDS_SQL by type name, or an Error when
 * the extension (or one of its types) is missing.
 * @param {Array<{ typname: string, oid: number | string, array_oid: number | string }>} rows
 * @returns {UidTypeOids}
 */
export function typeOidsOf(rows) {
  const oids = {};
  for (const r of rows) oids[r.typname] = { oid: Number(r.oid), arrayOid: Number(r.array_oid) };
  const missing = Object.keys(TYPES).filter((t) => !oids[t]);
  if (missing.length) {
    throw new Error(`the uid extension's types ${missing.join(', ')} are not in this database ` +
      '(CREATE EXTENSION uid)');
  }
  return oids;
}

/**
 * A parser of the text form of an array of a uid type: `{a,b,NULL}`, and
 * arrays of arrays.  The types' text never needs quotes, but quoted
 * elements are read too.
 * @template T
 * @param {(text: string) => T} parseElement
 * @returns {(text: string) => unknown[]}
 */
export function arrayParser(parseElement) {
  return (text) => {
    let pos = text.startsWith('[') ? text.indexOf('=') + 1 : 0; // dimensions "[1:2]={...}"
    const readArray = () => {
      const out = [];
      pos++; // '{'
      while (text[pos] !== '}') {
        if (text[pos] === '{') {
          out.push(readArray());
        } else if (text[pos] === '"') {
          let s = '';
          for (pos++; text[pos] !== '"'; pos++) s += text[pos] === '\\' ? text[++pos] : text[pos];
          pos++;
          out.push(parseElement(s));
        } else {
          const end = text.slice(pos).search(/[,}]/) + pos;
          const s = text.slice(pos, end);
          out.push(s === 'NULL' ? null : parseElement(s));
          pos = end;
        }
        if (text[pos] === ',') pos++;
      }
      pos++; // '}'
      return out;
    };
    return readArray();
  };
}

/**
 * A parser of the binary form of an array of a uid type (array_send):
 * the number of dimensions, a null flag and the element type, each
 * dimension's length and lower bound, then each element as its length
 * (-1: NULL) and bytes; arrays of arrays for more dimensions.  Bytes that
 * are not such an array (node-postgres's binary results lose bytes that
 * are not UTF-8) are 22P03.
 * @template T
 * @param {(bytes: Uint8Array) => T} parseElement
 * @param {string} typname for the error
 * @returns {(bytes: Uint8Array) => unknown[]}
 */
export function binaryArrayParser(parseElement, typname) {
  return (bytes) => {
    const malformed = () => new InvalidBinaryRepresentation(
      `malformed binary array of type ${typname}: ${bytes.length} bytes`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const int32 = (at) => {
      if (at + 4 > bytes.length) throw malformed();
      return view.getInt32(at);
    };
    const ndim = int32(0);
    if (ndim < 0 || ndim > 6) throw malformed(); // MAXDIM
    const lengths = Array.from({ length: ndim }, (_, d) => int32(12 + 8 * d));
    let pos = 12 + 8 * ndim;
    // each element takes at least its 4-byte length
    if (lengths.some((n) => n < 0) || (ndim > 0 && lengths.reduce((p, n) => p * n) * 4 > bytes.length - pos)) {
      throw malformed();
    }
    const read = (d) => Array.from({ length: lengths[d] }, () => {
      if (d + 1 < ndim) return read(d + 1);
      const len = int32(pos);
      pos += 4;
      if (len < 0) return null;
      if (pos + len > bytes.length) throw malformed();
      pos += len;
      return parseElement(bytes.subarray(pos - len, pos));
    });
    const out = ndim === 0 ? [] : read(0);
    if (pos !== bytes.length) throw malformed();
    return out;
  };
}
