/** Declarations of rules.mjs (see there). */
export interface PackageManifest {
  name: string;
  files?: string[];
  exports?: Record<string, unknown>;
  typesVersions?: Record<string, Record<string, string[]>>;
  peerDependencies?: Record<string, string>;
}
export declare const PUBLISHED: Readonly<Record<string, boolean>>;
export declare const VITEST_PEER_ALLOWED: ReadonlySet<string>;
export declare function tarballProblems(name: string, paths: readonly string[]): string[];
export declare function manifestProblems(manifest: PackageManifest): string[];
export declare function typesVersionsProblems(manifest: PackageManifest): string[];
export declare function attwProfile(esmOnly: boolean): 'strict' | 'esm-only';
