/**
 * Re-serialising a body that a body parser (express.json, express.urlencoded,
 * express.text, express.raw, multer fields) has read already.
 * @internal
 * @module
 */

/** What a request carries once a parser ran: `req.body`, and `req.rawBody` when a `verify` hook kept it. */
export interface ParsedBodySource {
  body?: unknown;
  rawBody?: unknown;
}

function appendForm(out: URLSearchParams, key: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) for (const item of value) appendForm(out, key, item);
  else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) appendForm(out, `${key}[${k}]`, v);
  else out.append(key, String(value));
}

/**
 * The bytes to hand on for a consumed request, from `rawBody` (exact bytes,
 * preferred) or from `body` in the format its content type names. Returns
 * `{body, replaceType}`; `replaceType` is true when the content type must be
 * set anew (multipart gets a new boundary).
 */
export function reserialise(
  source: ParsedBodySource,
  contentType: string,
): { body: BodyInit | null; replaceType: boolean } {
  const raw = source.rawBody;
  if (typeof raw === 'string' || raw instanceof Uint8Array) return { body: raw as BodyInit, replaceType: false };
  const parsed = source.body;
  if (parsed === undefined || parsed === null) return { body: null, replaceType: false };
  if (typeof parsed === 'string' || parsed instanceof Uint8Array)
    return { body: parsed as BodyInit, replaceType: false };
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json'))
    return { body: JSON.stringify(parsed), replaceType: false };
  if (type === 'multipart/form-data') {
    const form = new FormData();
    for (const [k, v] of Object.entries(parsed as object))
      for (const item of [v].flat()) if (typeof item !== 'object') form.append(k, String(item));
    return { body: form, replaceType: true };
  }
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(parsed as object)) appendForm(form, k, v);
  const text = form.toString();
  return { body: text.length > 0 ? text : null, replaceType: false };
}
