/**
 * `@framework/testing/node`: helpers that serve something on a real port, for tests on Node: a local OpenID
 * Provider (`createLocalIdp`) and a Node `(req, res)` app such as Express behind a test context (`serveNodeApp`).
 * @module
 */
export {
  createLocalIdp,
  type LocalIdp,
  type LocalIdpOptions,
  type LocalIdpProviderOptions,
  type LocalIdpUser,
} from './oidc/local-idp.js';
export { serveNodeApp, type ServedNodeApp } from './context/node-server.js';
