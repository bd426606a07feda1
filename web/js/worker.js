// The engine in a Web Worker: a long search (the planner at many GPU counts) never blocks typing.
// Messages in: {id, method, args}; out: {id, result} | {id, error} | {id, progress}. A long request
// (scaling, estimateMany, compare) stops (result null) when a newer one of its kind arrives.
import { createImportModule, createModule, createValidationModule, dispatcher, lazyModule } from './engine-core.js';

let modulePromise = null;
const dispatch = dispatcher({
  calculator: () => modulePromise,
  imports: lazyModule(() => createImportModule()),
  validation: lazyModule(() => createValidationModule()),
});

self.addEventListener('message', async ({ data }) => {
  const { id, method, args } = data;
  try {
    if (method === 'init') {
      modulePromise ??= createModule(args?.wasmBinary);
      await modulePromise;
      self.postMessage({ id, result: true });
      return;
    }
    const progress = (done, total) => self.postMessage({ id, progress: { done, total } });
    self.postMessage({ id, result: await dispatch(method, args, progress) });
  } catch (error) {
    self.postMessage({ id, error: String(error?.message ?? error) });
  }
});
