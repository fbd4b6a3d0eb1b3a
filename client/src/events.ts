/**
 * Telling stores that the session changed: stores in this page are refreshed
 * directly (and awaited), other tabs through a BroadcastChannel named after
 * the endpoint.
 * @internal
 * @module
 */
import type { Endpoint } from './http.js';

type Refresh = () => Promise<void>;

const local = new Map<Refresh, string>();
/** Tells this page's messages apart from other tabs' ones. */
export const PAGE_ID = Math.random().toString(36).slice(2);

/** The message posted on the channel. */
export interface ChangeMessage {
  type: 'session-changed';
  from: string;
}

/** Registers a store's refresh for changes at `base`; returns the unregister function. */
export function onChange(base: string, refresh: Refresh): () => void {
  local.set(refresh, base);
  return () => void local.delete(refresh);
}

/** Opens the cross-tab channel for `base`, or null where BroadcastChannel is missing. */
export function openChannel(base: string): BroadcastChannel | null {
  return typeof BroadcastChannel === 'function' ? new BroadcastChannel(`framework-auth:${base}`) : null;
}

/** Announces a change: refreshes this page's stores (resolves when they are done) and tells other tabs. */
export async function announce(ep: Endpoint): Promise<void> {
  const channel = openChannel(ep.base);
  if (channel) {
    const message: ChangeMessage = { type: 'session-changed', from: PAGE_ID };
    channel.postMessage(message);
    channel.close();
  }
  const runs = [...local].filter(([, base]) => base === ep.base).map(([refresh]) => refresh().catch(() => {}));
  await Promise.all(runs);
}
