/** Imported first by extension.ts: the moment the extension's bundle started to evaluate, for the activation figure. */
export const moduleStart = performance.now();
