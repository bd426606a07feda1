// Share and keep: copy the link (the URL hash holds the whole scenario), download the report as JSON,
// print. Labels in the current language; a short confirmation after each action.
import { el } from '../dom.js';
import { download, reportDocument } from '../export.js';
import { t } from '../i18n.js';

export class Share {
  constructor(container, { current }) {
    this.current = current;  // () => ({scenario, report}) of the estimate on screen, or null
    this.copy = el('button', { type: 'button', class: 'tool', id: 'copy-link' });
    this.save = el('button', { type: 'button', class: 'tool', id: 'download-json' });
    this.print = el('button', { type: 'button', class: 'tool', id: 'print' });
    this.done = el('span', { class: 'tool-status', role: 'status' });
    this.copy.addEventListener('click', () => this.copyLink());
    this.save.addEventListener('click', () => this.saveReport());
    this.print.addEventListener('click', () => window.print());
    container.append(el('div', { class: 'tools' }, [this.copy, this.save, this.print, this.done]));
  }

  label(lang) {
    this.lang = lang;
    this.copy.textContent = t(lang, 'share_copy');
    this.save.textContent = t(lang, 'share_json');
    this.print.textContent = t(lang, 'share_print');
  }

  async copyLink() {
    try {
      await navigator.clipboard.writeText(location.href);
      this.done.textContent = t(this.lang, 'share_copied');
    } catch {
      // No clipboard (an insecure context, a refused permission): show the link to copy by hand.
      this.done.textContent = location.href;
    }
  }

  saveReport() {
    const current = this.current();
    if (!current) return;
    download('traincalc-report.json', reportDocument(current.scenario, current.report, location.href), 'application/json');
    this.done.textContent = t(this.lang, 'share_saved');
  }
}
