// A tiny element builder. Text always goes in as text nodes: nothing typed by a user or read from a
// URL or catalog is ever parsed as HTML.
export function el(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    // false leaves a boolean attribute out, but a data-* attribute says "false".
    if (value === null || value === undefined || (value === false && !name.startsWith('data-'))) continue;
    if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of [].concat(children)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function idFor(path) {
  return `f-${path.replace(/\./g, '-')}`;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

// An SVG element with attributes and optional text (as a text node).
export function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

// A <details> element's place in `container`, as a re-render rebuilds it: its classes and section,
// those of the elements around it, and how many such came before it.
function detailsKeys(container) {
  const seen = new Map();
  return [...container.querySelectorAll('details')].map((details) => {
    const parts = [];
    for (let node = details; node && node !== container; node = node.parentElement) {
      parts.push(`${node.tagName}.${node.className}${node.dataset.section ? `#${node.dataset.section}` : ''}`);
    }
    const key = parts.join('<');
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return [`${key}@${n}`, details];
  });
}

// Replaces `container`'s children, keeping each <details> as the reader left it (open or closed):
// a new estimate never folds up the math someone is reading.
export function replaceKeepingOpen(container, ...children) {
  const open = new Map(detailsKeys(container).map(([key, details]) => [key, details.open]));
  container.replaceChildren(...children);
  for (const [key, details] of detailsKeys(container)) if (open.has(key)) details.open = open.get(key);
}
