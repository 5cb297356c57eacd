// Types of build-inputs.mjs, which stays plain JavaScript so `npm run build` runs without a loader.
export const manifestName: string;
export function fingerprint(root: string, paths: string[]): Record<string, string | null>;
export function readFiles(sourcePaths: string[]): string[];
export function writeManifest(
  root: string,
  outdir: string,
  build: { settings: Record<string, string | null>; inputs: string[]; outputs: string[] },
): Promise<void>;
export function upToDate(root: string, outdir: string, settings: Record<string, string | null>): Promise<number | false>;
