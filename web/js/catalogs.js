// The catalog the page uses: the engine's built-in one, with a vendor's over it from a link
// (#catalog=URL) or from the embedding page (postMessage). The engine validates every catalog; one it
// refuses is said, and the page goes on with what it had.
import { catalog } from './engine.js';
import { issueText, t } from './i18n.js';

const rowCounts = (text) => {
  const rows = JSON.parse(text);
  return { gpus: rows.gpus?.length ?? 0, offers: rows.offers?.length ?? 0, models: rows.models?.length ?? 0 };
};

// A catalog that could not be used, as an error for the form: its message is made in the language
// asked for (messageIn), with the engine's errors in that language too.
function failure(key, values, why) {
  const reason = (lang) => why.key ? t(lang, why.key, why.values)
    : why.errors ? why.errors.map((e) => `${e.field}: ${issueText(lang, e)}`).join(' ')
      : why.text;
  return { field: 'catalog', code: 'catalog_failed', messageIn: (lang) => `${t(lang, key, values)} (${reason(lang)})` };
}

// A vendor's catalog from its address, merged over the built-in one by the engine: { text, merged },
// or { why } it cannot be used, kept as a message key or the engine's errors so that it is said in
// the language shown at the time (the language can be switched later). fetch's own failure
// (network, CORS, CSP) is the browser's English, so it is said in the page's words.
async function fetchCatalog(catalogUrl) {
  let url;
  try {
    url = new URL(catalogUrl, location.href);
  } catch {
    return { why: { key: 'catalog_address_invalid' } };
  }
  if (!['http:', 'https:'].includes(url.protocol)) return { why: { key: 'catalog_address_unsupported', values: { protocol: url.protocol } } };
  let response;
  try {
    response = await fetch(url, { credentials: 'omit' });
  } catch {
    return { why: { key: 'catalog_unreachable' } };
  }
  if (!response.ok) return { why: { text: `HTTP ${response.status}` } };
  try {
    const text = await response.text();
    const merged = await catalog(text);
    return merged.errors ? { why: { errors: merged.errors } } : { text, merged };
  } catch (error) {
    return { why: { text: String(error?.message ?? error) } };
  }
}

// The built-in rows' texts (each one's source and notes), which the calculator's module leaves out
// of its catalog: js/catalog-texts.json, { gpus, offers, models } lists of { id, source, notes, ... }.
const TEXTS_URL = new URL('./catalog-texts.json', import.meta.url);
const LISTS = ['gpus', 'offers', 'models'];

// The catalog with each built-in row's texts filled from `texts` by list and ID: a row without its
// source is a built-in one as the calculator's module gives it (a vendor's row cites its own source
// and keeps its own texts); a row the texts do not list stays as it is.
export function withTexts(data, texts) {
  if (!data || !texts) return data;
  const filled = { ...data };
  for (const list of LISTS) {
    const byId = new Map((texts[list] ?? []).map((row) => [row.id, row]));
    filled[list] = (data[list] ?? []).map((row) => {
      const own = !row.source && byId.get(row.id);
      if (!own) return row;
      const missing = Object.entries(own).filter(([key]) => !(key in row));
      return missing.length ? { ...row, ...Object.fromEntries(missing) } : row;
    });
  }
  return filled;
}

// Whether a catalog still lacks the built-in texts: a row without its source.
const lacksTexts = (data) => LISTS.some((list) => (data?.[list] ?? []).some((row) => !row.source));

export class Catalogs {
  constructor() {
    this.texts = null;         // the built-in rows' texts once fetched
    this.textsRequest = null;  // the fetch of them, made once
    this.onTexts = null;       // called when texts arrive that the shown catalog lacked
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

  // The built-in rows' texts, once fetched, filled into the catalog in use.
  fillTexts() {
    this.data = withTexts(this.data, this.texts);
  }

  // Asked for when the page would show a built-in row's source: fetched once, in the background,
  // where the catalog lacks them (the whole engine's catalog, in the single file, has them), filled
  // in, then onTexts(). Without them (offline, a failed fetch), the page leaves the source out; a
  // failed fetch is not repeated until the page reloads, so that every change does not ask again.
  needTexts() {
    if (this.texts || this.textsRequest || !lacksTexts(this.data)) return;
    this.textsRequest = fetch(TEXTS_URL)
      .then((response) => (response.ok ? response.json() : null))
      .catch(() => null)
      .then((texts) => {
        if (!texts) return;
        this.texts = texts;
        this.data = withTexts(this.data, texts);
        this.onTexts?.();
      });
  }

  setVendor(text) {
    this.vendorText = text;
    const rows = JSON.parse(text);
    const ids = (list) => new Set((Array.isArray(list) ? list : []).map((row) => row?.id));
    this.vendorIds = { gpus: ids(rows.gpus), offers: ids(rows.offers) };
  }

  // The built-in catalog and, with a URL, a vendor's over it.
  async load(catalogUrl) {
    this.vendorText = '';
    this.vendorIds = { gpus: new Set(), offers: new Set() };
    this.problem = null;
    this.notice = null;
    this.fromMessage = false;
    this.data = await catalog();
    this.builtinIds = new Set([...this.data.gpus, ...this.data.offers, ...this.data.models].map((row) => row.id));
    if (catalogUrl) {
      const answer = await fetchCatalog(catalogUrl);
      if (answer.why) {
        this.problem = failure('catalog_failed', { url: catalogUrl }, answer.why);
      } else {
        this.setVendor(answer.text);
        this.notice = ['catalog_loaded', { url: catalogUrl, ...rowCounts(answer.text) }];
        this.data = answer.merged;
      }
    }
    this.fillTexts();
  }

  // A catalog the embedding page sent; { ok } or { ok: false, errors } for its answer.
  async acceptFromPage(text, origin) {
    const merged = await catalog(text);
    if (merged.errors) {
      this.problem = failure('catalog_message_failed', { origin }, { errors: merged.errors });
      return { ok: false, errors: merged.errors };
    }
    this.setVendor(text);
    this.data = merged;
    this.fillTexts();
    this.problem = null;
    this.fromMessage = true;
    this.notice = ['catalog_from_page', { origin, ...rowCounts(text) }];
    return { ok: true };
  }
}
