/**
 * Minimal, comment- and format-preserving edits of JSON-with-comments text. jsonc-parser parses; the
 * edits are made here so that only the edited property's own lines change: its formatter would
 * also rewrite the neighbouring property's line, and the user's other servers must stay as they are.
 */
import jsonc from 'jsonc-parser';

export type JsonPath = string[];

/** jsonc-parser's SyntaxKind values (a const enum, which cannot be imported under verbatimModuleSyntax). */
const TOKEN = { Comma: 5, EOF: 17, trivia: [12, 13, 14, 15] } as const satisfies Record<
  string,
  number | readonly number[]
>;

const PARSE_OPTIONS: jsonc.ParseOptions = { allowTrailingComma: true, disallowComments: false };

export class JsoncDocument {
  text: string;
  private readonly unit: string;
  private readonly eol: string;

  constructor(text: string) {
    this.text = text;
    this.eol = text.includes('\r\n') ? '\r\n' : '\n';
    const indent = /^([ \t]+)["/}\]]/m.exec(text)?.[1];
    this.unit = indent ? (indent.startsWith('\t') ? '\t' : indent) : '  ';
  }

  /** Parse errors as readable messages with line and column; empty when the text is valid JSONC. */
  static errors(text: string): string[] {
    const errors: jsonc.ParseError[] = [];
    jsonc.parse(text, errors, PARSE_OPTIONS);
    return errors.map((e) => {
      const before = text.slice(0, e.offset).split(/\r\n|\r|\n/);
      return `${jsonc.printParseErrorCode(e.error)} at line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
    });
  }

  value(): unknown {
    return jsonc.parse(this.text, [], PARSE_OPTIONS);
  }

  get(path: JsonPath): unknown {
    let node: unknown = this.value();
    for (const key of path) {
      if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
      node = (node as Record<string, unknown>)[key];
    }
    return node;
  }

  /** Sets the value at `path`, creating missing parent objects; `undefined` removes the property. */
  set(path: JsonPath, value: unknown): void {
    if (value === undefined) {
      this.remove(path);
      return;
    }
    const tree = this.tree();
    const existing = jsonc.findNodeAtLocation(tree, path);
    if (existing) {
      this.splice(
        existing.offset,
        existing.length,
        this.pretty(value, this.lineIndent(existing.parent?.offset ?? existing.offset)),
      );
      return;
    }
    // Insert into the deepest existing ancestor, wrapping the value in the missing objects.
    let depth = path.length - 1;
    while (depth > 0 && !jsonc.findNodeAtLocation(tree, path.slice(0, depth))) depth--;
    let wrapped: unknown = value;
    for (let i = path.length - 1; i > depth; i--) wrapped = { [path[i]!]: wrapped };
    const parent = depth === 0 ? tree : jsonc.findNodeAtLocation(tree, path.slice(0, depth))!;
    if (parent.type !== 'object')
      throw new Error(`${path.slice(0, depth).join('.') || 'the top level'} is not an object`);
    this.insertProperty(parent, path[depth]!, wrapped);
  }

  /** Renames the property at `path` to `newKey` in place, keeping its value, comments and position. */
  renameKey(path: JsonPath, newKey: string): void {
    const keyNode = jsonc.findNodeAtLocation(this.tree(), path)?.parent?.children?.[0];
    if (!keyNode) throw new Error(`No property at ${path.join('.')}`);
    this.splice(keyNode.offset, keyNode.length, JSON.stringify(newKey));
  }

  private remove(path: JsonPath): void {
    const prop = jsonc.findNodeAtLocation(this.tree(), path)?.parent;
    if (prop?.type !== 'property' || !prop.parent) return;
    const siblings = prop.parent.children ?? [];
    const index = siblings.indexOf(prop);
    let start = prop.offset;
    let end = prop.offset + prop.length;
    const comma = this.nextComma(end);
    if (comma !== null) end = comma + 1;
    else if (index > 0) {
      // The last property: the comma before it has to go, unless it is followed by a comment we would lose.
      const prev = siblings[index - 1]!;
      const prevComma = this.nextComma(prev.offset + prev.length);
      if (prevComma !== null) {
        this.splice(prevComma, 1, '');
        start -= 1;
        end -= 1;
      }
    }
    // Take the whole lines when the property has them to itself (with the comment ending its last line).
    const lineStart = this.text.lastIndexOf('\n', start - 1) + 1;
    const restOfLine = /^[ \t]*(\/\/[^\r\n]*)?(\r?\n|$)/.exec(this.text.slice(end));
    if (/^[ \t]*$/.test(this.text.slice(lineStart, start)) && restOfLine) {
      this.splice(lineStart, end + restOfLine[0].length - lineStart, '');
    } else {
      // Inline: also take the spaces that separated it from its neighbour.
      const prevEnd = index > 0 ? siblings[index - 1]!.offset + siblings[index - 1]!.length : -1;
      if (comma === null && prevEnd >= 0 && /^[ \t]*$/.test(this.text.slice(prevEnd, start))) start = prevEnd;
      else if (comma !== null) end += /^[ \t]*/.exec(this.text.slice(end))![0].length;
      this.splice(start, end - start, '');
    }
  }

  private insertProperty(object: jsonc.Node, key: string, value: unknown): void {
    const props = object.children ?? [];
    const closing = object.offset + object.length - 1;
    const closingLineStart = this.text.lastIndexOf('\n', closing - 1) + 1;
    const closingOnOwnLine = /^[ \t]*$/.test(this.text.slice(closingLineStart, closing));
    const objectIndent = this.lineIndent(object.offset);
    const last = props[props.length - 1];
    const childIndent = last && this.startsLine(last.offset) ? this.lineIndent(last.offset) : objectIndent + this.unit;
    const property = `${childIndent}${JSON.stringify(key)}: ${this.pretty(value, childIndent)}`;
    if (closingOnOwnLine) {
      this.splice(closingLineStart, 0, property + this.eol);
    } else {
      this.splice(closing, 0, this.eol + property + this.eol + this.lineIndent(closing));
    }
    if (last && this.nextComma(last.offset + last.length) === null) this.splice(last.offset + last.length, 0, ',');
  }

  /** Offset of the comma following `offset` (skipping whitespace and comments), or null. */
  private nextComma(offset: number): number | null {
    const scanner = jsonc.createScanner(this.text.slice(offset), false);
    for (let token: number = scanner.scan(); token !== TOKEN.EOF; token = scanner.scan()) {
      if (token === TOKEN.Comma) return offset + scanner.getTokenOffset();
      if (!(TOKEN.trivia as readonly number[]).includes(token)) return null;
    }
    return null;
  }

  private tree(): jsonc.Node {
    const tree = jsonc.parseTree(this.text, [], PARSE_OPTIONS);
    if (!tree) throw new Error('empty document');
    return tree;
  }

  private pretty(value: unknown, indent: string): string {
    return JSON.stringify(value, null, this.unit)
      .split('\n')
      .join(this.eol + indent);
  }

  private lineIndent(offset: number): string {
    const lineStart = this.text.lastIndexOf('\n', offset - 1) + 1;
    return /^[ \t]*/.exec(this.text.slice(lineStart))![0];
  }

  private startsLine(offset: number): boolean {
    return /^[ \t]*$/.test(this.text.slice(this.text.lastIndexOf('\n', offset - 1) + 1, offset));
  }

  private splice(offset: number, length: number, content: string): void {
    this.text = this.text.slice(0, offset) + content + this.text.slice(offset + length);
  }
}
