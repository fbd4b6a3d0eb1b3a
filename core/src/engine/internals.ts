/**
 * The core's internals (`AuthInternals`): what every route, hook and plugin `init` sees, assembled once from the
 * resolved options, the route registry and the engine's per-instance parts.
 * @module
 * @internal
 */
import type { AuthCallbacks } from '../callbacks.js';
import type { AuthInternals, Registry } from '../contract/types.js';
import { randomString } from '../crypto.js';
import type { Delivery } from '../delivery.js';
import type { RefusalLog } from '../rate-limit/refusals.js';
import type { RBAC } from '../rbac/types.js';
import { createAuthTelemetry } from '../telemetry.js';
import { userFieldsOf } from '../user-fields/bind.js';
import { resolvePluginSignUpFields } from '../user-fields/plugin-fields.js';
import type { ResolvedOptions } from './options.js';
import type { SessionReader } from './session-reader.js';

/** What {@link buildInternals} assembles. */
export interface InternalsParts {
  resolved: ResolvedOptions;
  registry: Registry;
  callbacks: AuthCallbacks;
  reader: SessionReader;
  refusals: RefusalLog;
  delivery: Delivery;
  events: AuthInternals['events'];
  rbac: RBAC | undefined;
  /** The plugins' extensions by id, filled as each plugin is initialised. */
  extensions: Readonly<Record<string, unknown>>;
}

/** The internals of one auth instance; `signingKey` is the first secret, or a random one per process without one. */
export function buildInternals(parts: InternalsParts): AuthInternals {
  const { resolved, registry, reader } = parts;
  const { config, plugins } = resolved;
  return {
    config,
    providers: resolved.providers,
    callbacks: parts.callbacks,
    strategy: resolved.strategy,
    adapter: resolved.adapter,
    signingKey: config.secret[0] ?? randomString(32),
    trustedOrigins: resolved.originPolicy.trustedOrigins,
    env: resolved.env,
    originPolicy: resolved.originPolicy,
    limiters: resolved.limiters,
    ...(parts.events ? { events: parts.events } : {}),
    maxBodySize: resolved.maxBodySize,
    logger: resolved.logger,
    rbac: parts.rbac,
    hooks: registry.hooks,
    signInMethods: plugins.flatMap((p) => p.signInMethods ?? []),
    signInLinks: plugins.flatMap((p) => p.signInLinks ?? []),
    signUpFields: resolvePluginSignUpFields(plugins, userFieldsOf(config)),
    extensionOf: (id) => (Object.hasOwn(parts.extensions, id) ? parts.extensions[id] : undefined),
    routeTemplateOf: (path) => registry.match(`${config.basePath}${path}`)?.template.slice(config.basePath.length),
    telemetry: createAuthTelemetry(),
    refusals: parts.refusals,
    readSession: reader.readSession,
    clock: resolved.clock,
    deliver: parts.delivery.deliver,
    locale: resolved.locale,
  };
}
