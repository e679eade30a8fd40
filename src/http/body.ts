// Reads a request body: at most 1 MiB (413 beyond, SPEC §1), parsed as JSON.
import type { IncomingMessage } from 'node:http';
import { badObject } from '../errors';

export const MAX_BODY_BYTES = 1024 * 1024;

export const bodyTooLarge = () => badObject('The request body is larger than 1 MiB', 413);
export const invalidJson = () => badObject('The request body could not be parsed as valid JSON');

export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw bodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw bodyTooLarge();
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw invalidJson();
  }
}
