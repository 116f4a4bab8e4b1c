// The engine's and the spec's version: the package's, read at build time.
// Share links carry it (`?v=`) so a page can say which version made a link.

import { version } from '../../package.json';

export const VERSION: string = version;
