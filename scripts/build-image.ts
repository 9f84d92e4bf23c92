/**
 * `tsx scripts/build-image.ts <dir>`: the processes' production bundles and the files they load
 * at run time, in the layout the images run from (scripts/lib/image-bundle.ts). docker/Dockerfile
 * runs it; it needs the Prisma clients generated first.
 */
import { buildImageBundle } from './lib/image-bundle.ts';

const out = process.argv[2];
if (!out) {
  console.error('usage: tsx scripts/build-image.ts <output dir>');
  process.exit(2);
}
const { ms, bytes } = await buildImageBundle(out);
console.log(`image bundle: ${(bytes / 1e6).toFixed(1)} MB in ${ms} ms → ${out}`);
