/** A sandboxed handler that returns what `event.use` (or a queue body's) asks for. */
export default async (event) => {
  const input = event.use === undefined ? event.messages[0].body : event;
  if (input.use === 'value') return { doubled: input.n * 2, tags: ['a', 'b'], nested: { ok: true } };
  if (input.use === 'function') return { callback: () => 1 };
  return undefined;
};
