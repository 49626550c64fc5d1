import { SledgeError } from '../errors.js';

/**
 * A small XML reader for element documents (HammerDB's config files: the
 * connect pool file). One pass over the text: every step moves forward and
 * no step rescans what is behind it, so time is linear in the length, and
 * memory is bounded by it. Line and column are counted as the reader goes.
 *
 * Accepted: one root element, nested elements (attributes are read and
 * skipped), character data, CDATA, comments, the XML declaration and other
 * processing instructions, the five predefined entities and numeric
 * character references to characters XML allows. Refused with a typed
 * SLEDGE_E_VALIDATION naming the line and column: DOCTYPE and other
 * declarations (no entity is ever defined or expanded), an unknown entity or
 * a bare '&', a reference to a character XML does not allow (&#0;,
 * &#xD800;, &#99999999;), unclosed or mismatched tags, a second root, text
 * outside the root, control characters, and nesting deeper than `maxDepth`.
 */

export interface XmlElement {
  tag: string;
  children: XmlElement[];
  /** The decoded character data of a leaf element (text and CDATA, comments left out); '' for an element with children. */
  text: string;
  line: number;
  column: number;
  /** Offsets [start, end) of the element's content in the source (empty for <tag/>), to rewrite a leaf's value in place. */
  content: [number, number];
}

export interface XmlOptions {
  /** What the document is, for messages ("connect pool XML"). */
  what: string;
  /** The input field the document came in (SledgeError.field). */
  field: string;
  /** Elements nested deeper than this are refused (the root is depth 1). */
  maxDepth: number;
  /** A document with more elements than this is refused (bounds memory whatever the markup). */
  maxElements: number;
}

/** Characters read between two pauses of readXmlAsync (a few milliseconds of work). */
const SLICE = 64 * 1024;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** The longest reference: &#x10FFFF; / &#1114111; (leading zeros beyond this are refused as malformed). */
const MAX_REF = 12;
const LETTER = /\p{L}/u;
const NAME_CHAR = /[\p{L}\p{N}]/u;
/** Whether code unit c may start (or, with `rest`, continue) an XML name: ASCII letters, "_", ":", any letter beyond ASCII; digits, ".", "-" after the first. */
function isNameUnit(src: string, k: number, rest: boolean): boolean {
  const c = src.charCodeAt(k);
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 58) return true;
  if (rest && ((c >= 48 && c <= 57) || c === 46 || c === 45)) return true;
  return c >= 128 && (rest ? NAME_CHAR : LETTER).test(src[k]!);
}
/** The offset of the first character XML 1.0 does not allow in a document (C0 controls but tab, LF, CR; U+FFFE, U+FFFF; a lone surrogate), or -1. */
function firstBadChar(src: string): number {
  for (let k = 0; k < src.length; k++) {
    const c = src.charCodeAt(k);
    if (c >= 0x20 && c < 0xd800) continue;
    if (c < 0x20 ? c !== 0x9 && c !== 0xa && c !== 0xd : c === 0xfffe || c === 0xffff) return k;
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = src.charCodeAt(k + 1);
      if (d >= 0xdc00 && d <= 0xdfff) k++;
      else return k;
    } else if (c >= 0xdc00 && c <= 0xdfff) return k;
  }
  return -1;
}

/** Whether XML allows the code point as a character (Char production of XML 1.0). */
const isXmlChar = (c: number) => c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

class Reader {
  private readonly n: number;
  /** Line counting: the position up to which newlines are counted, its line and the offset where that line starts. */
  private cPos = 0;
  private cLine = 1;
  private cLineStart = 0;
  /** Per searched character: [from, first offset >= from holding it (-1: none)], so no search rescans the text (linear overall). */
  private readonly found = new Map<string, [number, number]>();

  constructor(
    private readonly src: string,
    private readonly opts: XmlOptions,
  ) {
    this.n = src.length;
  }

  /** Line and column (1-based) of offset k: counted from the last position asked for (they only grow, but for an error). */
  at(k: number): { line: number; column: number } {
    if (k < this.cPos) {
      this.cPos = 0;
      this.cLine = 1;
      this.cLineStart = 0;
    }
    const { src } = this;
    for (let j = this.cPos; j < k; j++) {
      if (src.charCodeAt(j) === 10) {
        this.cLine++;
        this.cLineStart = j + 1;
      }
    }
    this.cPos = k;
    return { line: this.cLine, column: k - this.cLineStart + 1 };
  }

  /** A refusal at offset k (or at a known line and column). */
  fail(message: string, k: number | { line: number; column: number }): never {
    const { line, column } = typeof k === 'number' ? this.at(Math.min(k, this.n)) : k;
    throw new SledgeError('SLEDGE_E_VALIDATION', `${this.opts.what}: ${message} (line ${line}, column ${column})`, { field: this.opts.field });
  }

  /** The first offset >= k holding `c` (-1: none), reusing the last search when it still answers. */
  next(c: string, k: number): number {
    const f = this.found.get(c);
    if (f && f[0] <= k && (f[1] < 0 || f[1] >= k)) return f[1];
    const at = this.src.indexOf(c, k);
    this.found.set(c, [k, at]);
    return at;
  }

  /** Character data src[from, to) with its references replaced; refuses an unknown entity, a bare '&' and a bad character reference. */
  decode(from: number, to: number): string {
    const { src } = this;
    let amp = this.next('&', from);
    if (amp < 0 || amp >= to) return src.slice(from, to);
    let out = '';
    let k = from;
    while (amp >= 0 && amp < to) {
      out += src.slice(k, amp);
      let semi = -1;
      for (let j = amp + 1; j < to && j <= amp + MAX_REF; j++) {
        if (src[j] === ';') {
          semi = j;
          break;
        }
      }
      if (semi < 0) this.fail(`"&" does not start an entity or character reference: write it as &amp;`, amp);
      const ref = src.slice(amp + 1, semi);
      if (ref[0] === '#') {
        const hex = ref[1] === 'x';
        const digits = ref.slice(hex ? 2 : 1);
        if (!(hex ? /^[0-9A-Fa-f]{1,6}$/ : /^[0-9]{1,7}$/).test(digits)) this.fail(`&${ref}; is not a character reference (&#N; or &#xH;)`, amp);
        const code = parseInt(digits, hex ? 16 : 10);
        if (!isXmlChar(code)) this.fail(`&${ref}; refers to a character XML does not allow`, amp);
        out += String.fromCodePoint(code);
      } else {
        const v = Object.prototype.hasOwnProperty.call(PREDEFINED, ref) ? PREDEFINED[ref] : undefined;
        if (v === undefined) this.fail(`&${ref}; is not an XML entity: only &amp; &lt; &gt; &quot; &apos; and character references (&#N;) are read`, amp);
        out += v;
      }
      k = semi + 1;
      amp = this.next('&', k);
    }
    return out + src.slice(k, to);
  }

  /** The XML name at k, or `failure` (reported at `markup`, where the tag starts). */
  name(k: number, failure: string, markup = k): string {
    const { src, n } = this;
    if (k >= n || !isNameUnit(src, k, false)) this.fail(failure, markup);
    let e = k + 1;
    while (e < n && isNameUnit(src, e, true)) e++;
    return src.slice(k, e);
  }

  skipSpace(k: number): number {
    while (k < this.n && isSpace(this.src[k])) k++;
    return k;
  }

  /** The attributes of a start tag from k (read and dropped) -> the offset of its '>' or '/>'. */
  attributes(k: number, tag: string): number {
    const { src } = this;
    for (;;) {
      const j = this.skipSpace(k);
      if (j >= this.n) this.fail(`<${tag}> is not closed by ">"`, j);
      if (src[j] === '>' || (src[j] === '/' && src[j + 1] === '>')) return j;
      if (j === k) this.fail(`unexpected "${src[j]}" in <${tag}>`, j);
      const name = this.name(j, `unexpected "${src[j]}" in <${tag}>`);
      let e = this.skipSpace(j + name.length);
      if (src[e] !== '=') this.fail(`attribute ${name} of <${tag}> has no value (name="value")`, e);
      e = this.skipSpace(e + 1);
      const q = src[e];
      if (q !== '"' && q !== "'") this.fail(`the value of attribute ${name} of <${tag}> is not quoted`, e);
      const close = src.indexOf(q, e + 1);
      if (close < 0) this.fail(`the value of attribute ${name} of <${tag}> is not closed`, e);
      const lt = this.next('<', e + 1);
      if (lt >= 0 && lt < close) this.fail(`"<" in the value of attribute ${name} of <${tag}>`, lt);
      this.decode(e + 1, close);
      k = close + 1;
    }
  }

  /** Character data src[from, to) inside `el`: kept while el is a leaf, else only checked. */
  text(el: XmlElement | undefined, from: number, to: number, root: XmlElement | undefined): void {
    if (!el) {
      const t = this.skipSpace(from);
      if (t < to) this.fail(root ? 'text after the root element' : 'text before the root element', t);
    } else if (!el.children.length) el.text += this.decode(from, to);
    else {
      const amp = this.next('&', from);
      if (amp >= 0 && amp < to) this.decode(from, to);
    }
  }

  /** The whole reading, pausing (yield) every SLICE characters read, so an async caller can let other work run between slices. */
  *steps(): Generator<void, XmlElement> {
    const { src, n, opts } = this;
    const bad = firstBadChar(src);
    if (bad >= 0) this.fail(`character U+${src.charCodeAt(bad).toString(16).toUpperCase().padStart(4, '0')} is not allowed in XML`, bad);
    let root: XmlElement | undefined;
    let count = 0;
    const stack: XmlElement[] = [];
    let i = 0;
    let pause = SLICE;
    while (i < n) {
      if (i >= pause) {
        pause = i + SLICE;
        yield;
      }
      const lt = src.indexOf('<', i);
      const end = lt < 0 ? n : lt;
      if (end > i) this.text(stack[stack.length - 1], i, end, root);
      if (lt < 0) break;
      if (src.startsWith('<!--', lt)) {
        const e = src.indexOf('-->', lt + 4);
        if (e < 0) this.fail('a comment is not closed by "-->"', lt);
        i = e + 3;
      } else if (src.startsWith('<![CDATA[', lt)) {
        const e = src.indexOf(']]>', lt + 9);
        if (e < 0) this.fail('a CDATA section is not closed by "]]>"', lt);
        const top = stack[stack.length - 1];
        if (!top) this.fail('CDATA outside the root element', lt);
        if (!top.children.length) top.text += src.slice(lt + 9, e);
        i = e + 3;
      } else if (src.startsWith('<?', lt)) {
        const e = src.indexOf('?>', lt + 2);
        if (e < 0) this.fail('a processing instruction (<?...) is not closed by "?>"', lt);
        i = e + 2;
      } else if (src[lt + 1] === '!') {
        this.fail('declarations (<!DOCTYPE, <!ENTITY ...) are not accepted: remove them', lt);
      } else if (src[lt + 1] === '/') {
        const tag = this.name(lt + 2, '"</" is not followed by an element name', lt);
        const gt = this.skipSpace(lt + 2 + tag.length);
        if (src[gt] !== '>') this.fail(`</${tag} is not closed by ">"`, gt);
        const top = stack.pop();
        if (!top) this.fail(`</${tag}> closes no element`, lt);
        if (top.tag !== tag) this.fail(`</${tag}> closes <${top.tag}> (opened at line ${top.line}, column ${top.column})`, lt);
        top.content[1] = lt;
        i = gt + 1;
      } else {
        const tag = this.name(lt + 1, '"<" is not followed by an element name (write a "<" in text as &lt;)', lt);
        if (++count > opts.maxElements) this.fail(`more than ${opts.maxElements} elements`, lt);
        const gt = this.attributes(lt + 1 + tag.length, tag);
        const selfClosing = src[gt] === '/';
        const after = gt + (selfClosing ? 2 : 1);
        const { line, column } = this.at(lt);
        const el: XmlElement = { tag, children: [], text: '', line, column, content: [after, after] };
        const parent = stack[stack.length - 1];
        if (parent) {
          parent.children.push(el);
          parent.text = '';
        } else if (root) this.fail(`a second root element <${tag}> (the first is <${root.tag}>)`, lt);
        else root = el;
        if (stack.length >= opts.maxDepth) this.fail(`<${tag}> is nested deeper than ${opts.maxDepth} levels`, lt);
        if (!selfClosing) stack.push(el);
        i = after;
      }
    }
    const open = stack[stack.length - 1];
    if (open) this.fail(`<${open.tag}> is not closed: the document ends before </${open.tag}>`, open);
    if (!root) this.fail('there is no root element', n);
    return root;
  }
}

/** Parse an element document (see the file comment); throws SLEDGE_E_VALIDATION on field `opts.field`. */
export function readXml(src: string, opts: XmlOptions): XmlElement {
  const steps = new Reader(src, opts).steps();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * readXml for a server: the same reading, giving the event loop back every
 * SLICE characters (setTimeout 0, in Node and browsers alike), so a large
 * document never holds other requests for more than one slice.
 */
export async function readXmlAsync(src: string, opts: XmlOptions): Promise<XmlElement> {
  const steps = new Reader(src, opts).steps();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
