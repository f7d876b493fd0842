// Runs a perfev flame graph's embedded script against a minimal DOM (no
// browser here): init, zoom into a frame, search. Prints "key value" lines.
// usage: node flame_check.js FILE.svg ZOOM_FRAME SEARCH_REGEX
'use strict';
const fs = require('fs');
const [file, zoomName, term] = process.argv.slice(2);
const svg = fs.readFileSync(file, 'utf8');
const unxml = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
  .replace(/&apos;/g, "'").replace(/&amp;/g, '&');

function El(tag, attrs) {
  this.tagName = tag; this.attrs = Object.assign({}, attrs); this.children = [];
  this.style = { display: '' }; this.textContent = ''; this.parentNode = null;
  const cls = new Set((this.attrs['class'] || '').split(' ').filter(Boolean));
  this.classList = { add: (c) => cls.add(c), remove: (c) => cls.delete(c), contains: (c) => cls.has(c) };
  this.listeners = {};
}
El.prototype.getAttribute = function (k) { return k in this.attrs ? this.attrs[k] : null; };
El.prototype.setAttribute = function (k, v) { this.attrs[k] = String(v); };
El.prototype.getElementsByTagName = function (t) {
  const out = [];
  const walk = (e) => { for (const c of e.children) { if (c.tagName === t) out.push(c); walk(c); } };
  walk(this); return out;
};
El.prototype.addEventListener = function (ev, fn) { this.listeners[ev] = fn; };
El.prototype.append = function (c) { c.parentNode = this; this.children.push(c); };

const attrsOf = (s) => { const a = {}; s.replace(/([\w-]+)="([^"]*)"/g, (m, k, v) => { a[k] = unxml(v); }); return a; };
const root = new El('svg', attrsOf(svg.match(/<svg([^>]*)>/)[1]));
const byId = {};
for (const m of svg.matchAll(/<text id="(\w+)"[^>]*>([^<]*)<\/text>/g)) {
  const e = new El('text', { id: m[1] }); e.textContent = unxml(m[2]); byId[m[1]] = e; root.append(e);
}
const frames = new El('g', { id: 'frames' }); byId.frames = frames; root.append(frames);
for (const m of svg.matchAll(/<g class="f"([^>]*)><title>([^<]*)<\/title><rect([^>]*)\/><text([^>]*)>([^<]*)<\/text><\/g>/g)) {
  const g = new El('g', attrsOf(m[1])); g.attrs['class'] = 'f';
  const t = new El('title', {}); t.textContent = unxml(m[2]); g.append(t);
  g.append(new El('rect', attrsOf(m[3])));
  const tx = new El('text', attrsOf(m[4])); tx.textContent = unxml(m[5]); g.append(tx);
  frames.append(g);
}
global.document = { documentElement: root, getElementById: (id) => byId[id] };
global.window = { addEventListener: () => {} };
global.prompt = () => term; global.alert = () => {};
const script = svg.match(/<script[^>]*><!\[CDATA\[([\s\S]*?)\]\]><\/script>/)[1];
(0, eval)(script);
init({});
const gs = frames.children;
console.log('frames', gs.length);
const target = gs.find((g) => g.getAttribute('data-n') === zoomName);
frames.listeners.click({ target: target.children[1] });          // click its rect
const shown = gs.filter((g) => g.style.display !== 'none');
const r = target.children[1];
console.log('zoomed_width', Math.round(+r.getAttribute('width')));
console.log('zoomed_visible', shown.length);
console.log('parents', shown.filter((g) => g.classList.contains('parent')).length);
console.log('unzoom_shown', !byId.unzoom.classList.contains('hide'));
byId.search.listeners.click();                                      // search (prompt says term)
console.log('matched', byId.matched.textContent);
console.log('highlighted', gs.filter((g) => g.children[1].getAttribute('fill') === 'rgb(230,0,230)').length);
byId.unzoom.listeners.click();
console.log('after_unzoom_visible', gs.filter((g) => g.style.display !== 'none').length);
console.log('matched_all', byId.matched.textContent);
frames.listeners.mouseover({ target: gs[1].children[1] });
console.log('details', byId.details.textContent);
