// The reference runtime for MRTR handlers. Its modules are added by the runtime work; the package
// exists now so the workspace layout and build graph are complete.
export {};
