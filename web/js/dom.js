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
