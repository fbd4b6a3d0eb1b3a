/** W3C trace-context helpers (https://www.w3.org/TR/trace-context/). */

/** A position in a trace: the trace id and, when known, the parent span id. */
export interface TraceParent {
  traceId: string;
  spanId?: string;
  sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * Random bytes drawn from the CSPRNG 4 KiB at a time: ids are made for every run and step, and one
 * `getRandomValues` call per id cost several µs each under load.
 */
const pool = new Uint8Array(4096);
let used = pool.length;

function nextRandomByte(): number {
  if (used === pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  return pool[used++]!;
}

/** Char codes of the lowercase hex digits. */
const DIGIT_CODES = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
/** Per id length in bytes, the char codes of the id being made: a plain array (a typed array view per call cost more than the id). */
const idCodes: number[][] = [];

/**
 * Random lowercase hex of `bytes` bytes, never all zeros. Made as one flat string from its char codes: a
 * string grown digit by digit is a chain of rope nodes, a dozen objects per trace id.
 */
export function randomHex(bytes: number): string {
  const codes = (idCodes[bytes] ??= new Array<number>(bytes * 2).fill(0));
  for (;;) {
    let zero = true;
    for (let i = 0; i < bytes; i++) {
      const byte = nextRandomByte();
      if (byte !== 0) zero = false;
      codes[2 * i] = DIGIT_CODES[byte >> 4]!;
      codes[2 * i + 1] = DIGIT_CODES[byte & 15]!;
    }
    if (!zero) return String.fromCharCode.apply(null, codes);
  }
}

/** A new 32-hex trace id. */
export function newTraceId(): string {
  return randomHex(16);
}

/** Parses a `traceparent` header; `undefined` when absent or malformed (version ff and all-zero ids are invalid). */
export function parseTraceparent(header: string | null | undefined): TraceParent | undefined {
  if (!header) return undefined;
  const match = TRACEPARENT.exec(header.trim().toLowerCase());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags] = match as unknown as [string, string, string, string, string];
  if (version === 'ff' || /^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, sampled: (Number.parseInt(flags, 16) & 1) === 1 };
}

/** Formats a `traceparent` header value. */
export function formatTraceparent(traceId: string, spanId: string, sampled = true): string {
  return `00-${traceId}-${spanId}-${sampled ? '01' : '00'}`;
}
