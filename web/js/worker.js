// The engine in a Web Worker: a long search (the planner at many GPU counts) never blocks typing.
// Messages in: {id, method, args}; out: {id, result} | {id, error} | {id, progress}. A scaling request
// stops (result null) when a newer one arrives.
import { createModule, METHODS, scaling } from './engine-core.js';

let modulePromise = null;
let latestScaling = 0;

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
    if (method === 'scaling') {
      latestScaling = id;  // a newer scaling request supersedes this one
      const result = await scaling(module, args, {
        progress: (done, total) => self.postMessage({ id, progress: { done, total } }),
        cancelled: () => latestScaling !== id,
      });
      self.postMessage({ id, result });
      return;
    }
    self.postMessage({ id, result: METHODS[method](module, args) });
  } catch (error) {
    self.postMessage({ id, error: String(error?.message ?? error) });
  }
});
