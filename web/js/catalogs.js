// The catalog the page uses: the engine's built-in one, with a vendor's over it from a link
// (#catalog=URL) or from the embedding page (postMessage). The engine validates every catalog; one it
// refuses is said, and the page goes on with what it had.
import { catalog } from './engine.js';
import { errorText, t } from './i18n.js';

const rowCounts = (text) => {
  const rows = JSON.parse(text);
  return { gpus: rows.gpus?.length ?? 0, offers: rows.offers?.length ?? 0, models: rows.models?.length ?? 0 };
};

// A catalog that could not be used, as an error for the form: its message is made in the language
// asked for (problemIn), with the engine's errors in that language too.
function failure(key, values, why) {
  const reason = (lang) => why.key ? t(lang, why.key, why.values)
    : why.errors ? why.errors.map((e) => `${e.field}: ${lang === 'en' ? e.message : errorText(lang, e)}`).join(' ')
      : why.text;
  return { field: 'catalog', code: 'catalog_failed', messageIn: (lang) => `${t(lang, key, values)} (${reason(lang)})` };
}

export class Catalogs {
  constructor() {
    this.vendorText = '';      // the vendor's catalog (JSON text) once the engine accepted it, for each call
    this.data = null;          // the merged catalog the engine uses
    this.problem = null;       // an error to show beside the form's
    this.notice = null;        // [message key, values]: a vendor catalog in use is always said
    this.fromMessage = false;  // the embedding page's IDs mean nothing on the full page
    this.builtinIds = new Set();
    this.vendorIds = { gpus: new Set(), offers: new Set() };  // what the vendor's own catalog lists
  }

  // The catalog as a page shows it. Embedded by a vendor (a catalog named by the link or expected by
  // postMessage), only the vendor's own offers are listed, and none until its catalog is in, so a
  // competitor's price never shows on its page; the comparison by GPU keeps the GPUs it lists or
  // offers. Otherwise the whole merged catalog.
  shown(vendorOnly) {
    if (!this.data || !vendorOnly) return this.data;
    const offers = this.data.offers.filter((o) => this.vendorIds.offers.has(o.id));
    const sold = new Set([...this.vendorIds.gpus, ...offers.map((o) => o.gpu).filter((gpu) => typeof gpu === 'string')]);
    const gpus = this.data.gpus.filter((g) => sold.has(g.id));
    return { ...this.data, offers, compareGpus: gpus.length ? gpus : this.data.gpus };
  }

  setVendor(text) {
    this.vendorText = text;
    const rows = JSON.parse(text);
    const ids = (list) => new Set((Array.isArray(list) ? list : []).map((row) => row?.id));
    this.vendorIds = { gpus: ids(rows.gpus), offers: ids(rows.offers) };
  }

  // The built-in catalog and, with a URL, a vendor's over it.
  async load(catalogUrl, lang) {
    this.vendorText = '';
    this.vendorIds = { gpus: new Set(), offers: new Set() };
    this.problem = null;
    this.notice = null;
    this.fromMessage = false;
    this.data = await catalog();
    this.builtinIds = new Set([...this.data.gpus, ...this.data.offers, ...this.data.models].map((row) => row.id));
    if (!catalogUrl) return;
    // Why it failed, kept as keys and the engine's errors so that it is said in the language shown
    // at the time, not the one of the moment it failed (the language can be switched later).
    let fetching = false;
    let why = null;
    try {
      let url;
      try {
        url = new URL(catalogUrl, location.href);
      } catch {
        why = { key: 'catalog_address_invalid' };
        throw new Error('invalid address');
      }
      if (!['http:', 'https:'].includes(url.protocol)) {
        why = { key: 'catalog_address_unsupported', values: { protocol: url.protocol } };
        throw new Error('unsupported address');
      }
      fetching = true;
      const response = await fetch(url, { credentials: 'omit' });
      fetching = false;
      if (!response.ok) {
        why = { text: `HTTP ${response.status}` };
        throw new Error(why.text);
      }
      const text = await response.text();
      const merged = await catalog(text);
      if (merged.errors) {
        why = { errors: merged.errors };
        throw new Error('refused');
      }
      this.setVendor(text);
      this.notice = ['catalog_loaded', { url: catalogUrl, ...rowCounts(text) }];
      this.data = merged;
    } catch (error) {
      // fetch's own failure (network, CORS, CSP) is the browser's English: said in the page's words.
      if (!why) why = fetching ? { key: 'catalog_unreachable' } : { text: String(error?.message ?? error) };
      this.problem = failure('catalog_failed', { url: catalogUrl }, why);
    }
  }

  // A catalog the embedding page sent; { ok } or { ok: false, errors } for its answer.
  async acceptFromPage(text, origin, lang) {
    const merged = await catalog(text);
    if (merged.errors) {
      this.problem = failure('catalog_message_failed', { origin }, { errors: merged.errors });
      return { ok: false, errors: merged.errors };
    }
    this.setVendor(text);
    this.data = merged;
    this.problem = null;
    this.fromMessage = true;
    this.notice = ['catalog_from_page', { origin, ...rowCounts(text) }];
    return { ok: true };
  }
}
