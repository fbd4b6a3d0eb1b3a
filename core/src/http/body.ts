/**
 * Reads a request body once, within a byte limit, into a flat string map.
 * @internal
 * @module
 */
import { badRequest } from '../errors.js';

/** Default body limit for auth routes: 64 KiB. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

async function readLimited(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

function tooLarge(limit: number) {
  return badRequest(`Request body exceeds ${limit} bytes`, 'PAYLOAD_TOO_LARGE', 413);
}

/**
 * Parses a JSON, urlencoded or multipart body into field → string. JSON
 * values that are not strings are refused, so `authorize` always gets strings.
 * @throws AuthError `PAYLOAD_TOO_LARGE` (413), `INVALID_REQUEST` (400) for
 *   malformed bodies, `UNSUPPORTED_MEDIA_TYPE` (415).
 */
export async function readFormBody(request: Request, limit = DEFAULT_MAX_BODY_BYTES): Promise<Record<string, string>> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await readLimited(request, limit);
  } catch (e) {
    if (e instanceof Error && 'code' in e) throw e;
    throw badRequest('The request body could not be read');
  }
  if (bytes.byteLength === 0) return {};
  const text = () => {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw badRequest('The request body is not valid UTF-8');
    }
  };
  if (type === 'application/json' || type.endsWith('+json')) {
    let data: unknown;
    try {
      data = JSON.parse(text());
    } catch {
      throw badRequest('The request body is not valid JSON');
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw badRequest('The JSON body must be an object');
    const out: Record<string, string> = Object.create(null);
    for (const [k, v] of Object.entries(data)) {
      if (typeof v === 'string') out[k] = v;
      else if (typeof v === 'boolean' || typeof v === 'number') out[k] = String(v);
      else if (v !== null && v !== undefined) throw badRequest(`Field "${k}" must be a string`);
    }
    return out;
  }
  if (type === 'application/x-www-form-urlencoded' || type === '') {
    const out: Record<string, string> = Object.create(null);
    for (const [k, v] of new URLSearchParams(text())) if (!(k in out)) out[k] = v;
    return out;
  }
  if (type === 'multipart/form-data') {
    let form: FormData;
    try {
      form = await new Response(bytes, { headers: { 'content-type': request.headers.get('content-type')! } }).formData();
    } catch {
      throw badRequest('The multipart body is malformed');
    }
    const out: Record<string, string> = Object.create(null);
    for (const [k, v] of form) if (typeof v === 'string' && !(k in out)) out[k] = v;
    return out;
  }
  throw badRequest(`Unsupported content type "${type}"`, 'UNSUPPORTED_MEDIA_TYPE', 415);
}
