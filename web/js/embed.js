// Embedded on a vendor's page (#embed=1): compact, in the vendor's colour, with a link to the full
// calculator, and the postMessage protocol by which the embedding page sends its catalog.
import { t } from './i18n.js';
import { EMBED_SECTIONS } from './state.js';
import { themeColours } from './theme.js';

// Embedding parameters that could not be used (theme=red, origin=vendor.example, show=prices): the
// vendor who wrote the link is told in the console, once per link, and the page goes on without them.
let reported = '';
export function reportEmbedProblems(embed) {
  const text = embed.problems.map((p) => `${p.key}=${p.value}`).join('&');
  if (!embed.on || text === reported) return;
  reported = text;
  for (const p of embed.problems) console.warn(`traincalc embed: ${p.key}=${JSON.stringify(p.value)} is ignored; expected ${p.expected}.`);
}

// The page's look and its link to the full calculator (the same scenario, without the embedding
// parameters, and without IDs from the embedding page's own catalog, which the full page lacks).
export function applyEmbed(embed, lang, catalogs) {
  const { on, theme, show } = embed;
  document.body.classList.toggle('embed', on);
  // The essentials only, unless the vendor's link asks for more (#show=energy,articles).
  for (const section of EMBED_SECTIONS) document.body.classList.toggle(`show-${section}`, on && show.includes(section));
  if (on && theme) {
    const colours = themeColours(theme, window.matchMedia('(prefers-color-scheme: dark)').matches);
    document.body.style.setProperty('--accent', colours.accent);
    document.body.style.setProperty('--on-accent', colours.onAccent);
  } else {
    document.body.style.removeProperty('--accent');
    document.body.style.removeProperty('--on-accent');
  }
  const full = document.getElementById('full-link');
  full.hidden = !on;
  if (!on) return;
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  for (const key of ['embed', 'theme', 'origin', 'show']) params.delete(key);
  if (catalogs.fromMessage) {
    for (const key of ['hardware.gpu', 'pricing.offer', 'model.preset']) {
      if (params.has(key) && !catalogs.builtinIds.has(params.get(key))) params.delete(key);
    }
  }
  const url = new URL(location.href);
  url.hash = params.toString();
  full.href = url.href;
  full.textContent = t(lang, 'embed_full');
  full.title = t(lang, 'new_tab');
}

// A vendor's page may send its catalog by postMessage: only while embedded, only the page that
// embeds this one (the parent window), only from the origin the embedding link names (#origin=...),
// at most 1 MB, and validated by the engine like any catalog. Answers go to that origin only.
const MAX_MESSAGE_CATALOG = 1 << 20;

export class EmbedProtocol {
  // embed(): the state's embed settings now; ready: resolves once the link's catalogs are in place;
  // accept(text, origin): the catalog to the engine, { ok } or { ok: false, errors }.
  constructor({ embed, ready, accept }) {
    this.embed = embed;
    this.readyNow = false;
    window.addEventListener('message', async (event) => {
      const { on, origin } = embed();
      if (!on || !origin || event.origin !== origin || event.source !== window.parent) return;
      if (event.data?.type === 'traincalc-hello') {  // a parent that started listening late
        if (this.readyNow) {
          this.tell({ type: 'traincalc-ready' });
          this.height = null;  // and the height it missed
          this.tellHeight();
        }
        return;
      }
      if (event.data?.type !== 'traincalc-catalog') return;
      await ready();  // a catalog from a link loads first, so a message catalog is not overwritten
      let answer;
      try {
        const text = typeof event.data.catalog === 'string' ? event.data.catalog : JSON.stringify(event.data.catalog ?? null);
        answer = text.length > MAX_MESSAGE_CATALOG
          ? { ok: false, errors: [{ field: 'catalog', code: 'too_large', message: 'A catalog sent by postMessage is limited to 1 MB.' }] }
          : await accept(text, origin);
      } catch (error) {
        answer = { ok: false, errors: [{ field: 'catalog', code: 'parse_error', message: String(error?.message ?? error) }] };
      }
      this.tell({ type: 'traincalc-catalog-result', ...answer });
    });
  }

  // The page can take a catalog now: said to the embedding page, and from now on the page's height
  // each time it changes, so that the embedding page can size the frame to it (a phone's one column
  // is taller than a desktop's frame) instead of leaving a scroll inside a scroll.
  ready() {
    this.readyNow = true;
    this.tell({ type: 'traincalc-ready' });
    if (typeof ResizeObserver === 'undefined' || this.sizes) return;
    this.sizes = new ResizeObserver(() => this.tellHeight());
    this.sizes.observe(document.body);
    this.tellHeight();
  }

  tellHeight() {
    const style = getComputedStyle(document.body);
    const height = Math.ceil(document.body.getBoundingClientRect().height + parseFloat(style.marginTop) + parseFloat(style.marginBottom));
    if (height === this.height) return;
    this.height = height;
    this.tell({ type: 'traincalc-height', height });
  }

  tell(message) {
    const { on, origin } = this.embed();
    if (on && origin && window.parent !== window) window.parent.postMessage(message, origin);
  }
}
