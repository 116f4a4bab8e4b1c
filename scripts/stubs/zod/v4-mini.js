// The real zod 4 mini (see index.js).
export * from '../../../node_modules/zod/v4-mini/index.js';
