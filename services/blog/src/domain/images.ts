/**
 * Image rules: what an upload is, judged by its bytes (never by its name or the type the
 * client claims), and how stored images are addressed.
 */

export type ImageType = 'png' | 'jpg' | 'gif' | 'webp' | 'svg';

export const CONTENT_TYPES: Record<ImageType, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

/** The raster format of `bytes` by magic number, or null. SVG uploads are refused (they can carry script). */
export function sniffImage(bytes: Uint8Array): Exclude<ImageType, 'svg'> | null {
  const at = (i: number, ...sig: number[]) => sig.every((b, j) => bytes[i + j] === b);
  if (bytes.length >= 8 && at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (bytes.length >= 3 && at(0, 0xff, 0xd8, 0xff)) return 'jpg';
  if (
    bytes.length >= 6 &&
    (at(0, 0x47, 0x49, 0x46, 0x38, 0x37, 0x61) || at(0, 0x47, 0x49, 0x46, 0x38, 0x39, 0x61))
  )
    return 'gif';
  if (bytes.length >= 12 && at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'webp';
  return null;
}

/** Public path of a stored image (content-addressed, so it can be cached forever). */
export const imagePath = (id: string, type: ImageType) => `/api/blog/images/${id}.${type}`;

export function parseImageFile(file: string): { id: string; type: ImageType } | null {
  const m = /^([a-f0-9]{64})\.(png|jpg|gif|webp|svg)$/.exec(file);
  return m ? { id: m[1] as string, type: m[2] as ImageType } : null;
}
