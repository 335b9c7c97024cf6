/** Comment- and format-preserving edits of JSON-with-comments files, on top of jsonc-parser. */
import jsonc from "jsonc-parser";

export type JsonPath = (string | number)[];

export class JsoncDocument {
  text: string;
  private readonly formatting: jsonc.FormattingOptions;

  constructor(text: string) {
    this.text = text;
    this.formatting = detectFormatting(text);
  }

  /** Parse errors as readable messages with line and column; empty when the text is valid JSONC. */
  static errors(text: string): string[] {
    const errors: jsonc.ParseError[] = [];
    jsonc.parse(text, errors, { allowTrailingComma: true, disallowComments: false });
    return errors.map((e) => {
      const before = text.slice(0, e.offset).split(/\r\n|\r|\n/);
      return `${jsonc.printParseErrorCode(e.error)} at line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
    });
  }

  value(): unknown {
    return jsonc.parse(this.text, [], { allowTrailingComma: true, disallowComments: false });
  }

  get(path: JsonPath): unknown {
    let node: unknown = this.value();
    for (const key of path) {
      if (typeof node !== "object" || node === null) return undefined;
      node = (node as Record<string | number, unknown>)[key];
    }
    return node;
  }

  /** Sets (or with `undefined` removes) the value at `path`, keeping everything else byte for byte. */
  set(path: JsonPath, value: unknown): void {
    const edits = jsonc.modify(this.text, path, value, { formattingOptions: this.formatting });
    this.text = jsonc.applyEdits(this.text, edits);
  }

  /** Renames the property at `path` to `newKey` in place, keeping its value, comments and position. */
  renameKey(path: JsonPath, newKey: string): void {
    const tree = jsonc.parseTree(this.text, [], { allowTrailingComma: true, disallowComments: false });
    const valueNode = tree && jsonc.findNodeAtLocation(tree, path);
    const keyNode = valueNode?.parent?.type === "property" ? valueNode.parent.children?.[0] : undefined;
    if (!keyNode) throw new Error(`No property at ${path.join(".")}`);
    this.text = this.text.slice(0, keyNode.offset) + JSON.stringify(newKey) + this.text.slice(keyNode.offset + keyNode.length);
  }
}

/** Indentation and line ending of an existing file, so inserted text looks like the rest. */
function detectFormatting(text: string): jsonc.FormattingOptions {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indent?.startsWith("\t")) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent ? indent.length : 2, eol };
}
