/** W3C trace-context helpers (https://www.w3.org/TR/trace-context/). */

/** A position in a trace: the trace id and, when known, the parent span id. */
export interface TraceParent {
  traceId: string;
  spanId?: string;
  sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** Two hex digits per byte value. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
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

/** Random lowercase hex of `bytes` bytes, never all zeros. */
export function randomHex(bytes: number): string {
  for (;;) {
    let out = '';
    let zero = true;
    for (let i = 0; i < bytes; i++) {
      const byte = nextRandomByte();
      if (byte !== 0) zero = false;
      out += HEX[byte];
    }
    if (!zero) return out;
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
