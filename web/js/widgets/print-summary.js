// What a printout was estimated for, printed above the results (the form itself is not printed):
// the model, the training, the data, the GPUs, the price, and the link that reopens it, as text.
import { el } from '../dom.js';
import * as format from '../format.js';
import { t } from '../i18n.js';

export class PrintSummary {
  constructor(container) {
    this.container = container;
  }

  render(scenario, report, lang, link) {
    const c = report.compute;
    const type = scenario.training?.type === 'finetune'
      ? `${t(lang, 'type_finetune')} (${t(lang, `method_${scenario.training?.method ?? 'full'}`)})`
      : t(lang, 'type_pretrain');
    const data = c.images
      ? t(lang, 'print_images', { images: format.count(c.images, lang), epochs: format.plain(c.epochs ?? 1, lang) })
      : t(lang, 'print_tokens', { tokens: format.count(c.tokens, lang), seq: format.plain(c.seq_len, lang, 0), epochs: format.plain(c.epochs ?? 1, lang) });
    const cost = report.cost;
    const price = cost
      ? t(lang, 'print_price_value', { price: format.money(cost.per_gpu_hour, cost.currency, lang), offer: scenario.pricing?.offer ? ` (${scenario.pricing.offer})` : '' })
      : t(lang, 'no_price');
    const rows = [
      ['print_model', `${report.model.name ?? t(lang, 'print_model_own')} · ${format.count(report.model.params, lang)} ${t(lang, 'print_params')}`],
      ['print_training', `${type} · ${data}`],
      ['print_gpus', `${format.plain(report.plan.gpus, lang, 0)} × ${report.hardware.gpu_name} · ${report.hardware.precision?.toUpperCase() ?? ''}`],
      ['print_price', price],
      ['print_link', link],
    ];
    this.container.replaceChildren(
      el('h2', { text: t(lang, 'print_title') }),
      el('dl', {}, rows.flatMap(([key, value]) => [el('dt', { text: t(lang, key) }), el('dd', { 'data-print': key, text: value })])),
    );
  }
}
