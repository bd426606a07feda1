// The engine's published JSON Schemas compiled with ajv (draft 2020-12). "x-unit" is the
// contract's own annotation: each number's unit.
import Ajv2020 from 'ajv/dist/2020.js';

export function compileSchemas(schemaText) {
  // strictTypes as well as ajv's default strictness (strictRequired would refuse the report's if/then).
  const ajv = new Ajv2020({ allErrors: true, strictTypes: true });
  ajv.addKeyword({ keyword: 'x-unit', schemaType: 'string' });
  const out = {};
  for (const which of ['scenario', 'catalog', 'report']) out[which] = ajv.compile(JSON.parse(schemaText(which)));
  return out;
}
