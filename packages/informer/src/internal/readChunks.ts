import type { IncomingMessage } from 'node:http';

/** Chunks held before the socket is paused (backpressure), and the count at which it resumes. */
const highWaterChunks = 16;
const lowWaterChunks = 4;

/**
 * A body's chunks as they arrive, each as received (a stream's async iterator would concatenate
 * whatever is buffered into one copy per read). `onChunk` runs as each arrives. Throws the body's
 * error, or a premature-close error when the connection ends before the body does.
 */
export async function* readChunks(res: IncomingMessage, onChunk: () => void): AsyncGenerator<Buffer, void, undefined> {
  const queue: Buffer[] = [];
  let head = 0;
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const onData = (chunk: Buffer): void => {
    onChunk();
    queue.push(chunk);
    if (queue.length - head >= highWaterChunks) res.pause();
    wake?.();
  };
  const onEnd = (): void => {
    ended = true;
    wake?.();
  };
  const onError = (err: Error): void => {
    failure ??= err;
    wake?.();
  };
  const onClose = (): void => {
    if (!res.complete) failure ??= Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
    ended = true;
    wake?.();
  };
  res.on('data', onData);
  res.on('end', onEnd);
  res.on('error', onError);
  res.on('close', onClose);
  try {
    for (;;) {
      if (head < queue.length) {
        const chunk = queue[head];
        queue[head++] = undefined as unknown as Buffer;
        if (head === queue.length) {
          queue.length = 0;
          head = 0;
        }
        if (res.isPaused() && queue.length - head <= lowWaterChunks) res.resume();
        yield chunk;
        continue;
      }
      if (failure !== undefined) throw failure;
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    res.off('data', onData);
    res.off('end', onEnd);
    res.off('error', onError);
    res.off('close', onClose);
    // Stopped early (the consumer broke off): let the response go, as the stream's iterator does.
    if (!ended && failure === undefined) res.destroy();
  }
}
