/**
 * Reads a response body up to `maxBytes`: a declared Content-Length over the cap is refused
 * before reading, and a body that grows past it is cancelled mid-stream (the rest is never
 * downloaded).
 */
export type CappedBody = { ok: true; bytes: Buffer } | { ok: false };

export async function readCappedBody(response: Response, maxBytes: number): Promise<CappedBody> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    return { ok: false };
  }
  if (!response.body) return { ok: true, bytes: Buffer.alloc(0) };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return { ok: false };
    }
    chunks.push(value);
  }
  return { ok: true, bytes: Buffer.concat(chunks) };
}
