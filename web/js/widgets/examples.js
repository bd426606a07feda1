// The source articles' claims beside the calculator's answers (web/js/examples.js): each claim
// quoted, the engine's estimate of the same question with the data sizes stated, a note on where
// the claim holds and where not, and a link that opens it in the form. Computed when first opened.
import { el } from '../dom.js';
import * as format from '../format.js';
import { issueText, t } from '../i18n.js';
import { ARTICLE_TITLES, EXAMPLES } from '../examples.js';
import { headline } from '../headline.js';

export class Examples {
  constructor(container, { onOpen }) {
    this.container = container;
    this.summaryLabel = el('summary');
    this.intro = el('p', { class: 'hint' });
    this.status = el('p', { class: 'status', role: 'status' });
    this.list = el('ul', { class: 'examples' });
    this.details = el('details', { class: 'examples-view', id: 'examples' }, [this.summaryLabel, this.intro, this.status, this.list]);
    this.details.addEventListener('toggle', () => { if (this.details.open) onOpen(); });
    container.append(this.details);
    this.reports = null;
  }

  get open() {
    return this.details.open;
  }

  label(lang) {
    this.lang = lang;
    this.summaryLabel.textContent = t(lang, 'examples_title');
    this.intro.textContent = t(lang, 'examples_intro');
    if (this.reports && this.renderedLang !== lang) this.render(this.reports, lang);
  }

  loading(lang) {
    this.status.textContent = t(lang, 'examples_loading');
  }

  failed(lang) {
    this.status.textContent = t(lang, 'examples_failed');
  }

  // reports: the engine's report for each of EXAMPLES, in order.
  render(reports, lang) {
    this.reports = reports;
    this.renderedLang = lang;
    this.status.textContent = '';
    this.container.dataset.state = 'ok';
    this.list.replaceChildren(...EXAMPLES.map((example, i) => el('li', { 'data-example': example.id }, [
      el('p', { class: 'claim' }, [
        el('span', { class: 'seed', 'data-seed': example.seed, text: t(lang, 'examples_article', { n: ARTICLE_TITLES[example.seed]?.[lang] ?? example.seed }) }),
        ` ${example.claim[lang]}`,
      ]),
      answer(example, reports[i], lang),
      el('p', { class: 'muted', text: example.note[lang] }),
      el('a', { href: `#${example.hash}&lang=${lang}`, text: t(lang, 'examples_open') }),
    ])));
  }
}

function answer(example, report, lang) {
  if (report.errors.length) {
    const e = report.errors[0];
    return el('p', { class: 'answer bad', text: `${t(lang, 'examples_answer')} ${issueText(lang, e)}` });
  }
  const time = report.time;
  // The headline figures, as the page shows them once the example is opened.
  const h = headline(report);
  const [amount, unit] = format.duration(h.days, lang);
  const memory = report.memory;
  const parts = [
    `${amount} ${t(lang, unit)}`,
    `${format.plain(report.plan.gpus, lang, 0)} × ${report.hardware.gpu_name}`,
    `${t(lang, 'mfu_short')} ${format.percent(time.mfu, lang)} (${t(lang, `mfu_${time.mfu_source}`)})`,
  ];
  if (example.show?.includes('gpu_hours')) parts.push(`${format.count(h.gpuHours, lang)} ${t(lang, 'unit_gpu_hours')}`);
  if (example.show?.includes('batches_per_second')) {
    parts.push(t(lang, 'examples_batches', { n: format.plain(1 / time.step_seconds, lang, 1) }));
  }
  parts.push(t(lang, memory.fits ? 'examples_fits' : 'examples_no_fit', { gb: format.bytes(memory.per_gpu_bytes.total, lang) }));
  return el('p', {
    class: `answer ${memory.fits ? '' : 'bad'}`,
    'data-days': h.days,
    'data-fits': String(memory.fits),
    'data-mfu': time.mfu,
    text: `${t(lang, 'examples_answer')} ${parts.join(' · ')}`,
  });
}
