/**
 * The images of an ACP prompt (`image` blocks, and embedded `resource` blobs of an image type) as the core's
 * PromptImage: checked here, before anything reaches the session, because an image the API refuses stays in the
 * conversation and every later prompt of the session would fail on it.
 *
 *   data    base64, not empty, at most 5 MB decoded (the API's limit per image)
 *   type    read from the bytes (PNG, JPEG, GIF, WebP signatures): a mislabelled paste gets its real type, as the
 *           API refuses a media_type that does not match the data; bytes of no type it reads: -32602
 */
import { RequestError, type ContentBlock } from '@agentclientprotocol/sdk/unstable';
import type { ImageMediaType, PromptImage } from '../core/vocabulary';

const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The prompt's images, in order; a bad one is a -32602 naming it. */
export function promptImages(blocks: readonly ContentBlock[]): PromptImage[] {
  const images: PromptImage[] = [];
  blocks.forEach((block, index) => {
    if (block.type === 'image') images.push(checked(block.data, block.mimeType, `prompt[${index}] (image${block.uri ? ` ${block.uri}` : ''})`));
    else if (block.type === 'resource' && 'blob' in block.resource && block.resource.mimeType?.startsWith('image/')) {
      images.push(checked(block.resource.blob, block.resource.mimeType, `prompt[${index}] (${block.resource.uri})`));
    }
  });
  return images;
}

/** An embedded blob the images take (so the text does not also say "binary content not included"). */
export function isImageResource(block: ContentBlock): boolean {
  return block.type === 'resource' && 'blob' in block.resource && block.resource.mimeType?.startsWith('image/') === true;
}

function checked(data: string, mimeType: string, what: string): PromptImage {
  const compact = data.replace(/\s+/g, '');
  if (!compact || compact.length % 4 === 1 || !BASE64.test(compact)) throw RequestError.invalidParams({ mimeType }, `${what}: the image data is not base64`);
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > MAX_IMAGE_BYTES) throw RequestError.invalidParams({ mimeType, bytes: bytes.length }, `${what}: ${(bytes.length / 1024 / 1024).toFixed(1)} MB is over the model's 5 MB limit per image`);
  const sniffed = imageTypeOf(bytes);
  if (!sniffed) throw RequestError.invalidParams({ mimeType }, `${what}: not an image the model reads (PNG, JPEG, GIF or WebP), whatever its type says (${mimeType})`);
  return { mediaType: sniffed, data: compact };
}

function imageTypeOf(b: Buffer): ImageMediaType | undefined {
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (b.length >= 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return undefined;
}
