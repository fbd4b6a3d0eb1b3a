// Skipped by discovery: files starting with "_" are helpers, not triggers.
export const helper = true;
