// "Take the price from a cloud offer": the catalog's dated snapshots for the chosen GPU. Picking one
// fills the price inputs, which stay editable; the note says whose snapshot it is and from when.
import { el } from '../dom.js';
import * as format from '../format.js';
import { t } from '../i18n.js';

export class OfferPicker {
  constructor(container, { onPick }) {
    this.select = el('select', { id: 'offer-picker' });
    this.label = el('label', { for: 'offer-picker' });
    this.note = el('p', { class: 'hint offer-note', 'aria-live': 'polite' });
    this.select.addEventListener('change', () => {
      const offer = this.offers.find((o) => o.id === this.select.value);
      if (offer) {
        this.picked = offer;
        onPick(offer);
      }
    });
    this.root = el('div', { class: 'field offer-field' }, [this.label, this.select, this.note]);
    container.append(this.root);
    this.offers = [];
  }

  update(catalog, gpuId, lang, currentPrice) {
    this.label.textContent = t(lang, 'offer_pick');
    this.offers = (catalog?.offers ?? []).filter((o) => o.gpu === gpuId);
    this.root.hidden = this.offers.length === 0;
    const options = [el('option', { value: '', text: t(lang, 'offer_none', { n: this.offers.length }) })];
    const hourly = (o) => o.per_gpu_hour ?? o.per_gpu_month / (o.hours_per_month ?? 730);
    const sorted = [...this.offers].sort((a, b) => a.currency.localeCompare(b.currency) || hourly(a) - hourly(b));
    for (const o of sorted) {
      const price = o.per_gpu_hour !== undefined
        ? `${format.money(o.per_gpu_hour, o.currency, lang)}/h`
        : `${format.money(o.per_gpu_month, o.currency, lang)}/${t(lang, 'month')}`;
      options.push(el('option', { value: o.id, text: `${o.provider} · ${o.pricing_type ?? ''} · ${price} · ${o.date ?? ''}` }));
    }
    this.select.replaceChildren(...options);
    // The note stays while the price is still the snapshot's; editing the price makes it the user's.
    const still = this.picked && this.offers.includes(this.picked) && currentPrice === (this.picked.per_gpu_hour ?? this.picked.per_gpu_month);
    this.select.value = still ? this.picked.id : '';
    this.note.textContent = still
      ? t(lang, 'offer_snapshot', { provider: this.picked.provider, date: this.picked.date ?? '?', source: this.picked.source, currency: this.picked.currency })
      : '';
  }
}
