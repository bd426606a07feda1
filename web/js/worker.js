// The engine in a Web Worker: a long search (the planner at many GPU counts) never blocks typing.
// Messages in: {id, method, args}; out: {id, result} | {id, error} | {id, progress}. A long request
// (scaling, estimateMany, compare) stops (result null) when a newer one of its kind arrives.
import {
  createImportModule, createModule, createValidationModule, IMPORT_METHODS, lazyModule, LONG_RUNNING, METHODS, VALIDATION_METHODS,
} from './engine-core.js';
import { latestWinsByKind } from './latest.js';

let modulePromise = null;
const imports = lazyModule(() => createImportModule());
const validation = lazyModule(() => createValidationModule());
const requests = latestWinsByKind();  // a newer request of a long-running kind stops the older one

self.addEventListener('message', async ({ data }) => {
  const { id, method, args } = data;
  try {
    if (method === 'init') {
      modulePromise ??= createModule(args?.wasmBinary);
      await modulePromise;
      self.postMessage({ id, result: true });
      return;
    }
    if (IMPORT_METHODS[method]) {
      self.postMessage({ id, result: IMPORT_METHODS[method](await imports(), args) });
      return;
    }
    if (VALIDATION_METHODS[method]) {
      self.postMessage({ id, result: VALIDATION_METHODS[method](await validation(), args) });
      return;
    }
    const module = await modulePromise;
    if (LONG_RUNNING[method]) {
      const request = requests.start(method);
      const result = await LONG_RUNNING[method](module, args, {
        progress: (done, total) => self.postMessage({ id, progress: { done, total } }),
        cancelled: () => !request.current(),
      });
      self.postMessage({ id, result });
      return;
    }
    self.postMessage({ id, result: METHODS[method](module, args) });
  } catch (error) {
    self.postMessage({ id, error: String(error?.message ?? error) });
  }
});
