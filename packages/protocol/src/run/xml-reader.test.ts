import { describe, expect, it } from 'vitest';
import { err } from '../test/err.js';
import { readXml, readXmlAsync } from './xml-reader.js';

/** The XML reader behind connect pool imports: what it reads, and a typed refusal with line and column for everything else. */
const opts = { what: 'test XML', field: 'xml', maxDepth: 6, maxElements: 40 };
const read = (xml: string) => readXml(xml, opts);
const refusal = (xml: string) => {
  const e = err(() => read(xml));
  expect([e.code, e.field]).toEqual(['SLEDGE_E_VALIDATION', 'xml']);
  return e.message;
};

describe('readXml', () => {
  it('reads elements, text, references, CDATA, comments, declarations and attributes', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<!-- a pool -->\n<root a="1" b='x &amp; y'>\n  <k>a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; &#65;&#x42;&#x1F600;</k>\n  <c><![CDATA[<raw> & ]]>tail</c>\n  <empty/><e2 x="1" />\n</root>\n<!-- after -->\n`;
    const root = read(xml);
    expect(root.tag).toBe('root');
    expect(root.children.map((c) => c.tag)).toEqual(['k', 'c', 'empty', 'e2']);
    expect(root.children[0]!.text).toBe(`a <b> & "c" 'd' AB\u{1F600}`);
    expect(root.children[1]!.text).toBe('<raw> & tail');
    expect(root.children[2]!.text).toBe('');
    expect(root.text).toBe('');
    expect([root.children[0]!.line, root.children[0]!.column]).toEqual([4, 3]);
    // The content span of a leaf is its raw text in the source.
    const k = root.children[0]!;
    expect(xml.slice(k.content[0], k.content[1])).toMatch(/^a &lt;b&gt;.*&#x1F600;$/);
  });

  it('refuses bad entities and character references, naming line and column', () => {
    expect(refusal('<a>\n  x &nbsp; y</a>')).toBe('test XML: &nbsp; is not an XML entity: only &amp; &lt; &gt; &quot; &apos; and character references (&#N;) are read (line 2, column 5)');
    expect(refusal('<a>&#99999999;</a>')).toMatch(/&#99999999; is not a character reference .*\(line 1, column 4\)$/);
    expect(refusal('<a>&#x110000;</a>')).toMatch(/&#x110000; refers to a character XML does not allow \(line 1, column 4\)/);
    expect(refusal('<a>&#0;</a>')).toMatch(/&#0; refers to a character XML does not allow/);
    expect(refusal('<a>&#xD800;</a>')).toMatch(/&#xD800; refers to a character XML does not allow/);
    expect(refusal('<a>&#xFFFE;</a>')).toMatch(/refers to a character XML does not allow/);
    expect(refusal('<a>&#;</a>')).toMatch(/&#; is not a character reference/);
    expect(refusal('<a>&#x;</a>')).toMatch(/&#x; is not a character reference/);
    expect(refusal('<a>&#12a;</a>')).toMatch(/&#12a; is not a character reference/);
    expect(refusal('<a>fish & chips</a>')).toMatch(/"&" does not start an entity or character reference: write it as &amp; \(line 1, column 9\)/);
    expect(refusal('<a>&amp</a>')).toMatch(/"&" does not start/);
    expect(refusal('<a>&constructor;</a>')).toMatch(/&constructor; is not an XML entity/);
    expect(refusal('<a b="&bogus;"/>')).toMatch(/&bogus; is not an XML entity/);
  });

  it('refuses unclosed, mismatched and misplaced markup', () => {
    expect(refusal('<a>\n<b>x</a>')).toBe('test XML: </a> closes <b> (opened at line 2, column 1) (line 2, column 5)');
    expect(refusal('<a>\n <b>x</b>')).toBe('test XML: <a> is not closed: the document ends before </a> (line 1, column 1)');
    expect(refusal('<a>x</a></b>')).toMatch(/<\/b> closes no element/);
    expect(refusal('<a')).toMatch(/<a> is not closed by ">"/);
    expect(refusal('<a x="1></a>')).toMatch(/attribute x of <a> is not closed|"<" in the value of attribute x/);
    expect(refusal('<a x=1></a>')).toMatch(/the value of attribute x of <a> is not quoted/);
    expect(refusal('<a x></a>')).toMatch(/attribute x of <a> has no value/);
    expect(refusal('<a x="1"y="2"></a>')).toMatch(/unexpected "y" in <a>/);
    expect(refusal('<a>1 < 2</a>')).toMatch(/"<" is not followed by an element name \(write a "<" in text as &lt;\) \(line 1, column 6\)/);
    expect(refusal('<a></ a>')).toMatch(/"<\/" is not followed by an element name/);
    expect(refusal('<a></a x>')).toMatch(/<\/a is not closed by ">"/);
    expect(refusal('<a/><b/>')).toMatch(/a second root element <b> \(the first is <a>\)/);
    expect(refusal('x<a/>')).toMatch(/text before the root element \(line 1, column 1\)/);
    expect(refusal('<a/>x')).toMatch(/text after the root element \(line 1, column 5\)/);
    expect(refusal('<![CDATA[x]]><a/>')).toMatch(/CDATA outside the root element/);
    expect(refusal('<a><!-- x</a>')).toMatch(/a comment is not closed by "-->"/);
    expect(refusal('<a><![CDATA[x</a>')).toMatch(/a CDATA section is not closed by "]]>"/);
    expect(refusal('<?xml version="1.0"<a/>')).toMatch(/a processing instruction \(<\?\.\.\.\) is not closed/);
    expect(refusal('')).toMatch(/there is no root element/);
    expect(refusal('  \n ')).toMatch(/there is no root element/);
    expect(refusal('<a>\u0000</a>')).toBe('test XML: character U+0000 is not allowed in XML (line 1, column 4)');
    expect(refusal('<a>\n\ud800</a>')).toMatch(/character U\+D800 is not allowed in XML \(line 2, column 1\)/);
  });

  it('refuses declarations: no entity is ever defined or expanded (billion laughs, external entities)', () => {
    const laughs = '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>\n<lolz>&lol2;</lolz>';
    expect(refusal(laughs)).toBe('test XML: declarations (<!DOCTYPE, <!ENTITY ...) are not accepted: remove them (line 2, column 1)');
    expect(refusal('<!DOCTYPE a SYSTEM "file:///etc/passwd"><a>&xxe;</a>')).toMatch(/declarations/);
  });

  it('bounds nesting depth and element count', () => {
    expect(read('<a><a><a><a><a><a/></a></a></a></a></a>').tag).toBe('a'); // 6 levels: the limit
    expect(refusal('<a><a><a><a><a><a><a/></a></a></a></a></a></a>')).toMatch(/<a> is nested deeper than 6 levels \(line 1, column 19\)/);
    expect(refusal('<a>' + '<a>'.repeat(100_000))).toMatch(/nested deeper than 6 levels/);
    expect(read(`<r>${'<e/>'.repeat(39)}</r>`).children).toHaveLength(39);
    expect(refusal(`<r>${'<e/>'.repeat(40)}</r>`)).toMatch(/more than 40 elements \(line 1, column 160\)/);
  });

  it('counts lines and columns across CRLF, long lines and many elements', () => {
    const xml = `<r>\r\n${'<e/>'.repeat(30)}\r\n  <e>&bad;</e></r>`;
    expect(refusal(xml)).toMatch(/\(line 3, column 6\)$/);
  });

  it('readXmlAsync reads the same and lets other work run between slices of a large document', async () => {
    const xml = `<r>${'<e>some text &amp; more</e>\n'.repeat(20_000)}</r>`;
    const big = { ...opts, maxElements: 100_000 };
    const order: string[] = [];
    setTimeout(() => order.push('timer'), 0);
    const tree = await readXmlAsync(xml, big).then((t) => {
      order.push('read');
      return t;
    });
    expect(order).toEqual(['timer', 'read']);
    expect(tree).toEqual(readXml(xml, big));
    await expect(readXmlAsync(`${xml}<r/>`, big)).rejects.toThrow(/^test XML: a second root element <r> \(the first is <r>\) \(line 20001, column 5\)$/);
  });
});
