/** Bundle the command into `outDir/main.cjs`, and each lazy subcommand (bench, conformance, mcp) into `outDir/<name>.cjs`, which takes the modules main.cjs holds from it at run time. */
export function bundleCli(outDir: string): void;
/** `code` with every character outside ASCII escaped (`\uXXXX`), the same program. */
export function asciiOnly(code: string): string;
/** Run the command once through `bin` and leave V8's code cache next to its bundle. */
export function writeCodeCache(bin: string): void;
/** The package's large data files, by their path in a checkout. */
export const DATA: string[];
/** Write each of DATA brotli-compressed into `dataDir` as `<name>.br`. */
export function writePackageData(dataDir: string): void;
