// A strict, small XML reader for the double: it parses SSML the way the service must (well-formedness,
// entities, matching tags), so a test can prove the router's documents hold exactly the markup it meant.
// Test support only: production never parses XML.

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: Array<XmlElement | string>;
}

export class XmlSyntaxError extends Error {}

const NAME = /^[A-Za-z_:][A-Za-z0-9_:.-]*/;
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(raw: string): string {
  if (FORBIDDEN.test(raw)) throw new XmlSyntaxError('character not allowed in XML 1.0');
  return raw.replace(/&([^;]*);?/g, (whole, body: string) => {
    if (!whole.endsWith(';')) throw new XmlSyntaxError('unterminated entity');
    if (Object.hasOwn(PREDEFINED, body)) return PREDEFINED[body]!;
    const code = /^#x([0-9A-Fa-f]+)$/.exec(body)?.[1] ?? /^#([0-9]+)$/.exec(body)?.[1];
    if (code === undefined) throw new XmlSyntaxError('undefined entity');
    const point = body.startsWith('#x') ? Number.parseInt(code, 16) : Number.parseInt(code, 10);
    if (point === 0 || (point < 0x20 && ![9, 10, 13].includes(point)) || point > 0x10ffff) throw new XmlSyntaxError('bad character reference');
    return String.fromCodePoint(point);
  });
}

export function parseXml(source: string): XmlElement {
  let position = 0;
  const rest = () => source.slice(position);
  const skipSpace = () => {
    while (position < source.length && /\s/.test(source[position]!)) position += 1;
  };
  const skipMisc = () => {
    for (;;) {
      skipSpace();
      if (rest().startsWith('<?')) {
        const end = source.indexOf('?>', position);
        if (end < 0) throw new XmlSyntaxError('unterminated processing instruction');
        position = end + 2;
      } else if (rest().startsWith('<!--')) {
        const end = source.indexOf('-->', position);
        if (end < 0) throw new XmlSyntaxError('unterminated comment');
        position = end + 3;
      } else return;
    }
  };
  const readName = () => {
    const match = NAME.exec(rest());
    if (!match) throw new XmlSyntaxError('expected a name');
    position += match[0].length;
    return match[0];
  };
  const readElement = (): XmlElement => {
    if (source[position] !== '<') throw new XmlSyntaxError('expected an element');
    position += 1;
    const element: XmlElement = { name: readName(), attributes: {}, children: [] };
    for (;;) {
      skipSpace();
      if (rest().startsWith('/>')) {
        position += 2;
        return element;
      }
      if (source[position] === '>') {
        position += 1;
        break;
      }
      const attribute = readName();
      skipSpace();
      if (source[position] !== '=') throw new XmlSyntaxError('expected =');
      position += 1;
      skipSpace();
      const quote = source[position];
      if (quote !== '"' && quote !== "'") throw new XmlSyntaxError('expected a quoted value');
      const end = source.indexOf(quote, position + 1);
      if (end < 0) throw new XmlSyntaxError('unterminated attribute');
      const raw = source.slice(position + 1, end);
      if (raw.includes('<')) throw new XmlSyntaxError('< in an attribute value');
      if (Object.hasOwn(element.attributes, attribute)) throw new XmlSyntaxError('duplicate attribute');
      element.attributes[attribute] = decodeEntities(raw);
      position = end + 1;
    }
    for (;;) {
      if (position >= source.length) throw new XmlSyntaxError(`unclosed <${element.name}>`);
      if (rest().startsWith('</')) {
        position += 2;
        if (readName() !== element.name) throw new XmlSyntaxError('mismatched end tag');
        skipSpace();
        if (source[position] !== '>') throw new XmlSyntaxError('expected >');
        position += 1;
        return element;
      }
      if (rest().startsWith('<!--')) {
        skipMisc();
        continue;
      }
      if (source[position] === '<') {
        element.children.push(readElement());
        continue;
      }
      const next = source.indexOf('<', position);
      const end = next < 0 ? source.length : next;
      const raw = source.slice(position, end);
      if (raw.includes('>') && raw.includes(']]>')) throw new XmlSyntaxError(']]> in text');
      element.children.push(decodeEntities(raw));
      position = end;
    }
  };
  skipMisc();
  const root = readElement();
  skipMisc();
  if (position !== source.length) throw new XmlSyntaxError('content after the root element');
  return root;
}

/** Every element named `name`, depth first. */
export function elementsNamed(root: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = root.name === name ? [root] : [];
  for (const child of root.children) if (typeof child !== 'string') found.push(...elementsNamed(child, name));
  return found;
}

/** The text content of an element and its descendants. */
export function textOf(element: XmlElement): string {
  return element.children.map((child) => (typeof child === 'string' ? child : textOf(child))).join('');
}
