/**
 * The errors the value classes throw: one class per SQLSTATE that the uid
 * extension's functions raise for bad input, with the server's message,
 * DETAIL and HINT, so that a client refuses what the server refuses, in
 * the server's words.
 *
 * @module pgkuid/errors
 */

/** The base class: `code` is the SQLSTATE, `detail` and `hint` as the server's. */
export class UidError extends Error {
  /**
   * @param {string} message the server's primary message
   * @param {string} [detail] the server's DETAIL, if it gives one
   * @param {string} [hint] the server's HINT, if it gives one
   */
  constructor(message, detail, hint) {
    super(message);
    this.name = new.target.name;
    /** @type {string} the SQLSTATE */
    this.code = new.target.code;
    if (detail !== undefined) this.detail = detail;
    if (hint !== undefined) this.hint = hint;
  }
}

/** 22P02: text that is not a value of the type. */
export class InvalidTextRepresentation extends UidError {
  static code = '22P02';
}

/** 22003: a number out of the range of a type or of a function's argument. */
export class NumericValueOutOfRange extends UidError {
  static code = '22003';
}

/** 22P03: a binary value of the wrong length or out of range. */
export class InvalidBinaryRepresentation extends UidError {
  static code = '22P03';
}

/** 22008: a time outside the range a format can hold. */
export class DatetimeValueOutOfRange extends UidError {
  static code = '22008';
}

/** 22023: an invalid setting given as an argument (snowflake_si's base clock). */
export class InvalidParameterValue extends UidError {
  static code = '22023';
}
