/** A sandboxed handler that returns at once but leaves behind a timer that throws, crashing its idle worker. */
export default async () => {
  setTimeout(() => {
    throw new Error('thrown after the handler returned');
  }, 5);
};
