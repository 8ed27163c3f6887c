// The public API's schemas and pure rules, shared by the server (validation, OpenAPI) and anyone
// who wants the types.
export * from './analyses';
export * from './canonical';
export * from './catalog';
export * from './client';
export * from './clientSecret';
export * from './consent';
export * from './device';
export * from './documents';
export * from './errors';
export * from './handoff';
export * from './limits';
export * from './list';
export * from './liveness';
export * from './location';
export * from './media';
export * from './sdk-report-shapes';
export * from './session';
export * from './settings';
export * from './versions';
