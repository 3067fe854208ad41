// A stand-in job thread for the pool's tests: echoes, spins the CPU, or dies, as the job says.
import { parentPort } from 'node:worker_threads';

parentPort.postMessage({ ready: true });

parentPort.on('message', ({ id, job }) => {
  if (job.kind === 'crash') throw new Error('thread crashed');
  if (job.kind === 'spin') {
    const until = Date.now() + job.ms;
    while (Date.now() < until) {
      // Busy on purpose: the deadline must stop a thread that never yields.
    }
  }
  parentPort.postMessage({
    id,
    result: { ok: true, value: job.value, limit: job.limit ?? null, threadId: process.pid },
  });
});
