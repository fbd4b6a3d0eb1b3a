// An env module for `framework triggers test --env`: a function building the env (it could open real clients).
export default async function env(): Promise<{ paused: boolean }> {
  await Promise.resolve();
  return { paused: true };
}
