// "Paste log lines": the engine reads the step time, throughput, TFLOP/s and peak memory from a
// training log (traincalc parse-log); what it read is listed, each figure with the framework's own
// words, and the measured-run fields take the medians.
import { el } from '../dom.js';
import { t } from '../i18n.js';
import * as format from '../format.js';
import { pasteBox } from './paste-box.js';

// The measured keys the form has a field for, and how each is shown in the list.
const FORM_KEYS = {
  'time.step_seconds': (v, lang) => `${format.plain(v, lang, 3)} s`,
  'time.tokens_per_second': (v, lang) => `${format.count(v, lang)} tokens/s`,
  'time.tflops_per_gpu': (v, lang) => `${format.plain(v, lang, 1)} TFLOP/s`,
  'memory.allocated_bytes': (v, lang) => format.bytes(v, lang),
  'memory.reserved_bytes': (v, lang) => format.bytes(v, lang),
};

export class LogPaste {
  constructor(container, { onRead }) {
    Object.assign(this, pasteBox(container, {
      textareaId: 'log-paste', buttonId: 'log-read', rows: 5, className: 'hf-import log-paste', onSubmit: onRead, lang: () => this.lang,
    }));
  }

  label(lang) {
    this.lang = lang;
    this.summary.textContent = t(lang, 'log_paste');
    this.labelElement.textContent = t(lang, 'log_paste');
    this.button.textContent = t(lang, 'log_read');
  }

  update() {}

  // The figures the form takes (key -> value in the scenario's units), after the per-GPU throughput is
  // made the job's with the GPU count of the measured run.
  static usable(result, gpus) {
    const measured = { ...result.measured };
    if (measured['time.tokens_per_second_per_gpu'] !== undefined && !(measured['time.tokens_per_second'] > 0) && gpus > 0) {
      measured['time.tokens_per_second'] = measured['time.tokens_per_second_per_gpu'] * gpus;
      delete measured['time.tokens_per_second_per_gpu'];
    }
    const used = Object.fromEntries(Object.entries(measured).filter(([key]) => key in FORM_KEYS));
    const unused = Object.keys(measured).filter((key) => !(key in FORM_KEYS));
    return { used, unused };
  }

  render(result, used, unused) {
    const lang = this.lang;
    if (!Object.keys(used).length) {
      this.message.replaceChildren(el('p', { class: 'error', 'data-log-found': '0', text: t(lang, 'log_nothing') }));
      return;
    }
    const list = Object.entries(used).map(([key, value]) => `${t(lang, `calibration.${key}`)} ${FORM_KEYS[key](value, lang)}`);
    const lines = [el('p', { class: 'ok', 'data-log-found': String(Object.keys(used).length), text: t(lang, 'log_found', { list: list.join(t(lang, 'list_separator')) }) })];
    if (unused.length) lines.push(el('p', { class: 'hint', text: t(lang, 'log_unused', { list: unused.join(', ') }) }));
    // Each reading with the framework's own words, so what was read can be checked before it is used.
    lines.push(el('ul', { class: 'log-readings' }, result.readings.map((r) => el('li', { 'data-key': r.key, text: `${r.line}: ${r.text}` }))));
    this.message.replaceChildren(...lines);
  }
}
