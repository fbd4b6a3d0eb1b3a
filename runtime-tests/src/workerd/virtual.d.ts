/** The module `argon2WasmPlugin` serves to Worker builds. */
declare module 'virtual:argon2-wasm' {
  const modules: import('../../../core/src/password/precompiled.js').Argon2WasmModules;
  export default modules;
}
