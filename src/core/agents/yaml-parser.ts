/**
 * The `yaml` parser, behind a module of our own so agent-catalog.ts can load it lazily. `yaml` is CommonJS, and
 * a dynamic `import('yaml')` in the CLI's split bundle yields a chunk that exports only `default` (esbuild's
 * interop), while Node and tsx also give the named exports: imported statically here, the named export is ours.
 */
export { parseDocument } from 'yaml';
