// "Take the price from a cloud offer": the catalog's dated snapshots for the chosen GPU. Picking one
// fills the price inputs, which stay editable, and puts the offer in the scenario (pricing.offer):
// its instance size and network still apply at a price of the user's own. The note says whose
// snapshot it is and from when, and what the offer's instances can form.
import { el } from '../dom.js';
import * as format from '../format.js';
import { t } from '../i18n.js';
import { priceKey } from '../modes.js';

export class OfferPicker {
  constructor(container, { onPick, onClear }) {
    this.select = el('select', { id: 'offer-picker' });
    this.label = el('label', { for: 'offer-picker' });
    this.note = el('p', { class: 'hint offer-note', 'aria-live': 'polite' });
    this.network = el('p', { class: 'hint offer-network', 'data-offer-network': '' });
    this.select.addEventListener('change', () => {
      const offer = this.offers.find((o) => o.id === this.select.value);
      if (offer) onPick(offer);
      else onClear();
    });
    this.root = el('div', { class: 'field offer-field' }, [this.label, this.select, this.note, this.network]);
    container.append(this.root);
    this.offers = [];
  }

  // The offers of the state's GPU in `catalog`, the one its link or pick names (pricing.offer) chosen,
  // and the note for the price as typed.
  update(state, catalog) {
    const lang = state.lang;
    const gpuId = state.values.get('hardware.gpu');
    const offerId = state.extra.get('pricing.offer');
    const currentPrice = Number(state.values.get(priceKey(state)));
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
      // Only the parts an offer has ("Acme Cloud · CN¥12.50/h", never "Acme Cloud · · CN¥12.50/h").
      const parts = [o.provider, pricingWord(lang, o.pricing_type ?? ''), price, o.date].filter((part) => part && String(part).trim());
      options.push(el('option', { value: o.id, text: parts.join(' · ') }));
    }
    this.select.replaceChildren(...options);
    // The snapshot's note while the price is still the snapshot's; an edited price is the user's own
    // for the offer's instances.
    const picked = this.offers.find((o) => o.id === offerId);
    this.select.value = picked ? picked.id : '';
    // An empty price input (another price mode) leaves the offer's own price in use.
    const still = picked && (!(currentPrice > 0) || currentPrice === (picked.per_gpu_hour ?? picked.per_gpu_month));
    this.note.textContent = !picked ? ''
      : still ? t(lang, picked.source ? 'offer_snapshot' : 'offer_snapshot_unsourced',
        { provider: picked.provider, date: picked.date ?? '?', source: picked.source, currency: picked.currency })
        : t(lang, 'offer_own_price', { offer: picked.name ?? picked.id });
    this.network.textContent = picked ? networkText(picked, lang) : '';
    this.network.dataset.offerNetwork = picked?.cluster ?? '';
    this.network.hidden = !this.network.textContent;
  }
}

// A catalog's pricing type in the reader's words: its leading word (on-demand, spot, reserved,
// reserved-block, monthly) translated, the rest (a provider's product name) as written.
export function pricingWord(lang, type) {
  const match = /^(on-demand|spot|reserved-block|reserved|monthly)\b(.*)$/.exec(type);
  if (!match) return type;
  const word = t(lang, `pricing_${match[1].replace('-', '_')}`);
  const rest = match[2].trim().replace(/^\((lowest seen)\)$/, () => `(${t(lang, 'pricing_lowest_seen')})`);
  return rest ? `${word} ${rest}` : word;
}

// What the offer's instances can form: their size, and whether and over what they join.
export function networkText(offer, lang) {
  const cap = offer.max_gpus && offer.cluster !== 'none' ? t(lang, 'offer_max_gpus', { max: format.plain(offer.max_gpus, lang, 0) }) : '';
  if (!offer.cluster || !offer.instance_gpus) return cap;
  const values = { n: format.plain(offer.instance_gpus, lang, 0), gbps: format.plain(offer.inter_node_gbps, lang, 4) };
  // A vendor's offer may say how its instances join without saying the bandwidth.
  const key = offer.cluster !== 'none' && offer.inter_node_gbps === undefined ? `offer_network_${offer.cluster}_unsaid` : `offer_network_${offer.cluster}`;
  return [t(lang, key, values), cap].filter(Boolean).join(' ');
}
