import type sharpModule from 'sharp';

type Sharp = typeof sharpModule;

/** sharp (libvips) is loaded by the first conversion, not at start: most processes never convert a sheet (ADR 0053). */
let loadedSharp: Promise<Sharp> | undefined;
const loadSharp = () => {
  loadedSharp ??= import('sharp').then((module) => module.default);
  return loadedSharp;
};

export interface ConvertLimits {
  maxEdge: number;
  maxBytes: number;
}

/** The image could not be read, or no quality we try brings it under the byte bound. */
export class SheetConversionError extends Error {
  constructor(
    readonly kind: 'decode_error' | 'budget',
    message: string,
  ) {
    super(message);
  }
}

// Good enough for a model to tell scenes apart; the lower one is the retry for a sheet over the byte bound.
const qualities = [75, 45] as const;

const toWebp = (sharp: Sharp, input: Uint8Array, maxEdge: number, quality: number) =>
  sharp(input)
    .resize({ width: maxEdge, height: maxEdge, fit: 'inside', withoutEnlargement: true })
    .webp({ quality })
    .toBuffer({ resolveWithObject: true });

/** The sheet ready for a model: WebP, at most `maxEdge` pixels on its longer side and `maxBytes` long. */
export async function convertSheet(input: Uint8Array, limits: ConvertLimits) {
  const sharp = await loadSharp();
  let metadata: Awaited<ReturnType<ReturnType<Sharp>['metadata']>>;
  try {
    metadata = await sharp(input).metadata();
  } catch (error) {
    throw new SheetConversionError('decode_error', `the sheet is not an image sharp can read: ${(error as Error).message}`);
  }
  if (!metadata.width || !metadata.height) throw new SheetConversionError('decode_error', 'the sheet has no size');
  for (const quality of qualities) {
    let converted: Awaited<ReturnType<typeof toWebp>>;
    try {
      converted = await toWebp(sharp, input, limits.maxEdge, quality);
    } catch (error) {
      throw new SheetConversionError('decode_error', `the sheet could not be decoded: ${(error as Error).message}`);
    }
    if (converted.data.byteLength <= limits.maxBytes) {
      return {
        webp: converted.data,
        width: converted.info.width,
        height: converted.info.height,
        sourceWidth: metadata.width,
        sourceHeight: metadata.height,
        inputFormat: metadata.format ?? 'unknown',
        inputBytes: input.byteLength,
        outputBytes: converted.data.byteLength,
      };
    }
  }
  throw new SheetConversionError('budget', `the sheet stays over ${limits.maxBytes} bytes as WebP`);
}
