/**
 * The preview's HTML sanitiser. The web has no sanitiser library (the email service uses
 * sanitize-html for stored mail) and takes no new dependency for one: the browser's own parser
 * reads the campaign's HTML into an inert document, and an allowlist walk keeps only e-mail
 * markup. The result is shown in a `sandbox=""` frame (no script, no same-origin access), so
 * this is the second of two walls. The stored campaign keeps what the admin wrote.
 */

/**
 * Elements dropped together with everything inside them. A <title> too: the inbox shows the
 * subject, and its text, unwrapped into the head, would be painted as a line above the mail.
 */
const DROP = new Set([
  'title',
  'script',
  'noscript',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'template',
  'base',
  'link',
  'meta',
  'form',
  'input',
  'button',
  'select',
  'textarea',
  'svg',
  'math',
]);

/** Elements kept (anything else is unwrapped: its children stay, the element goes). */
const KEEP = new Set(
  (
    'a abbr address article aside b bdi bdo big blockquote br caption center cite code col colgroup dd del ' +
    'details dfn div dl dt em figcaption figure font footer h1 h2 h3 h4 h5 h6 header hr i img ins kbd li ' +
    'main mark nav ol p picture pre q s samp section small source span strike strong style sub summary sup ' +
    'table tbody td tfoot th thead time tr tt u ul var wbr'
  ).split(' '),
);

/** Attributes that hold a URL: only http(s), mailto, tel, cid, relative and data images pass. */
const URL_ATTRS = new Set(['href', 'src', 'background', 'poster', 'cite', 'action', 'formaction']);
const SAFE_URL = /^(?:https?:|mailto:|tel:|cid:|#|\/|\.|[^:]*$)/i;
const SAFE_DATA_IMAGE = /^data:image\/(?:png|gif|jpe?g|webp);base64,/i;

function cleanAttributes(el: Element): void {
  for (const attr of [...el.attributes]) {
    const name = attr.name.toLowerCase();
    const value = attr.value.trim();
    const drop =
      name.startsWith('on') ||
      name === 'srcdoc' ||
      name === 'srcset' ||
      name.includes(':') ||
      (URL_ATTRS.has(name) && !(SAFE_URL.test(value) || (name === 'src' && SAFE_DATA_IMAGE.test(value)))) ||
      (name === 'style' && /expression\s*\(|javascript:|url\s*\(\s*['"]?\s*javascript:/i.test(value));
    if (drop) el.removeAttribute(attr.name);
  }
  // A link opens outside the preview, never inside the frame.
  if (el.localName === 'a' && el.hasAttribute('href')) el.setAttribute('target', '_blank');
}

function clean(node: Element): void {
  for (const child of [...node.children]) {
    const tag = child.localName;
    if (DROP.has(tag)) {
      child.remove();
      continue;
    }
    clean(child);
    if (KEEP.has(tag)) cleanAttributes(child);
    else child.replaceWith(...child.childNodes);
  }
}

/** A whole HTML document (head styles kept) with only allowed markup left. */
export function sanitizeHtml(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  clean(doc.head);
  clean(doc.body);
  for (const style of doc.querySelectorAll('style'))
    style.textContent = (style.textContent ?? '').replace(/@import[^;]*;?|expression\s*\(/gi, '');
  return `<!doctype html><html><head><meta charset="utf-8">${doc.head.innerHTML}</head><body>${doc.body.innerHTML}</body></html>`;
}
