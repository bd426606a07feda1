// "Embed on your site": writes the <iframe> code for a vendor's page: the current workload, the
// vendor's theme colour, catalog URL, and the origin allowed to send a catalog by postMessage.
import { el } from '../dom.js';
import { t } from '../i18n.js';
import { EMBED_SECTIONS, originOf } from '../state.js';

const escapeAttribute = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// The iframe code for a page at pageUrl (the calculator's own address) with the scenario's hash.
export function iframeSnippet(pageUrl, hash, { theme, catalogUrl, origin, height, show = [] }) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  for (const key of ['embed', 'theme', 'origin', 'catalog', 'view', 'show']) params.delete(key);
  params.set('embed', '1');
  const sections = show.filter((s) => EMBED_SECTIONS.includes(s));
  if (sections.length) params.set('show', sections.join(','));
  if (/^#?[0-9a-fA-F]{6}$/.test(theme ?? '')) params.set('theme', theme.replace('#', '').toLowerCase());
  if (catalogUrl) params.set('catalog', catalogUrl);
  if (originOf(origin ?? '')) params.set('origin', originOf(origin));
  const url = new URL(pageUrl);
  url.hash = params.toString().replace(/%2C/g, ',');
  const rows = Math.max(320, Math.min(4000, Math.round(Number(height) || 720)));
  const frame = `<iframe src="${escapeAttribute(url.href)}" title="traincalc" width="100%" height="${rows}" style="border:0" loading="lazy"></iframe>`;
  if (!originOf(origin ?? '')) return frame;
  // With an origin named, the calculator tells that page its height: the frame follows it (taller on
  // a phone's one column), from the calculator's origin only.
  return `${frame}
<script>
  addEventListener('message', (e) => {
    if (e.origin !== ${JSON.stringify(url.origin)} || e.data?.type !== 'traincalc-height' || !Number.isFinite(e.data.height)) return;
    for (const frame of document.querySelectorAll('iframe[title="traincalc"]'))
      if (frame.contentWindow === e.source) frame.style.height = e.data.height + 'px';
  });
</script>`;
}

export class EmbedSnippet {
  constructor(container) {
    this.summary = el('summary');
    this.intro = el('p', { class: 'muted' });
    const field = (id, type, extra = {}) => {
      const input = el('input', { id, type, ...extra });
      input.addEventListener('input', () => this.write());
      const label = el('label', { for: id });
      return { input, label, node: el('div', { class: 'field' }, [label, input]) };
    };
    this.theme = field('embed-theme', 'color', { value: '#0f6b5c' });
    this.catalog = field('embed-catalog', 'text', { placeholder: 'https://vendor.example/traincalc-catalog.json', spellcheck: 'false' });
    this.origin = field('embed-origin', 'text', { placeholder: 'https://vendor.example', spellcheck: 'false' });
    this.originHint = el('span', { class: 'hint' });
    this.origin.node.append(this.originHint);
    this.height = field('embed-height', 'text', { value: '720', inputmode: 'numeric' });
    // Where the calculator is hosted: this page's address when served; opened from disk (the offline
    // file), an address only its host knows, asked for rather than a file:// one no visitor can open.
    this.host = field('embed-host', 'url', { placeholder: 'https://calculator.example/', spellcheck: 'false' });
    this.host.node.hidden = location.protocol !== 'file:';
    // Beyond the essentials, only what the vendor asks for: energy and carbon, the articles' claims.
    this.show = EMBED_SECTIONS.map((section) => {
      const input = el('input', { id: `embed-show-${section}`, type: 'checkbox', value: section });
      input.addEventListener('change', () => this.write());
      const label = el('label', { for: `embed-show-${section}` });
      return { section, input, label, node: el('div', { class: 'field check' }, [label, input]) };
    });
    // Where a vendor learns to write its catalog: the format (docs) and its JSON Schema, both served
    // beside the page.
    this.docs = el('p', { class: 'hint embed-docs' });
    this.output = el('textarea', { id: 'embed-code', readonly: true, rows: 4, spellcheck: 'false' });
    this.outputLabel = el('label', { for: 'embed-code' });
    this.copy = el('button', { type: 'button', class: 'tool', id: 'embed-copy' });
    this.status = el('span', { class: 'tool-status', role: 'status' });
    this.copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(this.output.value);
        this.status.textContent = t(this.lang, 'embed_copied');
      } catch {
        this.output.select();
      }
    });
    this.details = el('details', { class: 'embed-snippet' }, [
      this.summary, this.intro,
      el('div', { class: 'grid' }, [this.host.node, this.theme.node, this.catalog.node, this.origin.node, this.height.node, ...this.show.map((s) => s.node)]),
      this.docs,
      this.outputLabel, this.output, el('div', { class: 'tools' }, [this.copy, this.status]),
    ]);
    this.details.addEventListener('toggle', () => this.write());
    container.append(this.details);
  }

  label(lang) {
    this.lang = lang;
    this.summary.textContent = t(lang, 'embed_title');
    this.intro.textContent = t(lang, 'embed_intro');
    this.theme.label.textContent = t(lang, 'embed_theme');
    this.catalog.label.textContent = t(lang, 'embed_catalog');
    this.origin.label.textContent = t(lang, 'embed_origin');
    this.height.label.textContent = t(lang, 'embed_height');
    this.host.label.textContent = t(lang, 'embed_host');
    this.outputLabel.textContent = t(lang, 'embed_code');
    this.copy.textContent = t(lang, 'embed_copy');
    for (const { section, label } of this.show) label.textContent = t(lang, `embed_show_${section}`);
    const link = (href, key) => el('a', { href: new URL(href, location.href).href, target: '_blank', rel: 'noopener', text: t(lang, key) });
    this.docs.replaceChildren(t(lang, 'embed_docs'), ' ', link('docs/embedding.md#vendor-catalogs', 'embed_docs_format'), ' · ',
      link('schema/catalog.schema.json', 'embed_docs_schema'));
    this.write();
  }

  write() {
    if (!this.details.open) return;
    const origin = this.origin.input.value.trim();
    this.originHint.textContent = origin && !originOf(origin) ? t(this.lang, 'embed_origin_invalid') : '';
    let page;
    if (location.protocol === 'file:') {
      try {
        page = new URL(this.host.input.value.trim());
        if (!['http:', 'https:'].includes(page.protocol)) page = null;
      } catch {
        page = null;
      }
      if (!page) {
        this.output.value = t(this.lang, 'embed_host_needed');
        return;
      }
    } else {
      page = new URL(location.href);
    }
    page.hash = '';
    this.output.value = iframeSnippet(page.href, location.hash, {
      theme: this.theme.input.value, catalogUrl: this.catalog.input.value.trim(),
      origin: this.origin.input.value.trim(), height: this.height.input.value,
      show: this.show.filter((s) => s.input.checked).map((s) => s.section),
    });
  }
}
