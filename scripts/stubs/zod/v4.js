// The real zod 4 (see index.js).
export * from '../../../node_modules/zod/v4/index.js';
