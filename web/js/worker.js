// The engine in a Web Worker: a long search (the planner at many GPU counts) never blocks typing.
// Messages in: {id, method, args}; out: {id, result} | {id, error} | {id, progress}. A long request
// (scaling, estimateMany, compare) stops (result null) when a newer one of its kind arrives.
import { createModule, LONG_RUNNING, METHODS } from './engine-core.js';

let modulePromise = null;
const latest = {};  // per long-running kind, the newest request's id

self.addEventListener('message', async ({ data }) => {
  const { id, method, args } = data;
  try {
    if (method === 'init') {
      modulePromise ??= createModule(args?.wasmBinary);
      await modulePromise;
      self.postMessage({ id, result: true });
      return;
    }
    const module = await modulePromise;
    if (LONG_RUNNING[method]) {
      latest[method] = id;  // a newer request of the same kind supersedes this one
      const result = await LONG_RUNNING[method](module, args, {
        progress: (done, total) => self.postMessage({ id, progress: { done, total } }),
        cancelled: () => latest[method] !== id,
      });
      self.postMessage({ id, result });
      return;
    }
    self.postMessage({ id, result: METHODS[method](module, args) });
  } catch (error) {
    self.postMessage({ id, error: String(error?.message ?? error) });
  }
});
