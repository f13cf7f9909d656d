/**
 * Reads the declarations of a Hermes contract module (Pydantic classes and `method(...)` calls) well
 * enough to compare it with a rendered document. It does not rely on indentation: the seed copy of
 * sessions.py lost it, so a class body runs until the next `class` or top-level `method(`.
 */

export interface PyField {
  readonly name: string;
  readonly annotation: string;
  /** The default expression as written (`None`, `False`, `Field(default_factory=list)`), if any. */
  readonly defaultSource: string | undefined;
}

export interface PyClass {
  readonly name: string;
  readonly bases: readonly string[];
  readonly fields: PyField[];
  /** `model_config = … | {"extra": "allow"}` in the class body. */
  extraAllow: boolean;
  doc: string | undefined;
  /** Members of a `WireEnum` subclass, in declaration order. */
  readonly enumValues: string[];
}

export interface PyMethod {
  readonly name: string;
  readonly params: string;
  readonly result: string;
  readonly doc: string;
}

export interface PyModule {
  readonly classes: Map<string, PyClass>;
  readonly methods: PyMethod[];
}

/**
 * The seed files are page captures: a header, then the source with every line followed by two `|`
 * lines (blank source lines keep only their `|` pair). Plain source passes through unchanged.
 */
export function decodeSeedSource(raw: string): string {
  const lines = raw.split('\n');
  const start = lines.findIndex((line) => line.startsWith('"""') || line.startsWith('from ') || line.startsWith('class '));
  const body = start === -1 ? lines : lines.slice(start);
  if (!body.includes('|')) return body.join('\n');
  const out: string[] = [];
  let current: string | undefined;
  let pipes = 0;
  for (const line of body) {
    if (line !== '|') {
      if (current !== undefined) out.push(current);
      current = line;
      pipes = 0;
    } else if (++pipes % 2 === 0) {
      out.push(current ?? '');
      current = undefined;
    }
  }
  if (current !== undefined) out.push(current);
  return out.join('\n');
}

/** Drops a trailing `# comment` that is not inside a string literal. */
function stripComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote !== undefined) {
      if (char === '\\') i++;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '#') {
      return line.slice(0, i).trimEnd();
    }
  }
  return line.trimEnd();
}

/** The concatenation of adjacent Python string literals in `source` (simple escapes only). */
export function pythonStrings(source: string): string {
  let out = '';
  for (const match of source.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g)) {
    out += (match[1] ?? match[2] ?? '').replace(/\\(.)/g, (_all, escaped: string) => (escaped === 'n' ? '\n' : escaped));
  }
  return out;
}

function parenDepth(text: string): number {
  let depth = 0;
  for (const char of pythonStringsStripped(text)) {
    if (char === '(') depth++;
    else if (char === ')') depth--;
  }
  return depth;
}

function pythonStringsStripped(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
}

function parseMethodCall(statement: string): PyMethod {
  const name = /^method\(\s*"([^"]+)"/.exec(statement)?.[1];
  const params = /params=(\w+)/.exec(statement)?.[1];
  const result = /result=(\w+)/.exec(statement)?.[1];
  const docAt = statement.indexOf('doc=');
  if (name === undefined || params === undefined || result === undefined || docAt === -1) {
    throw new Error(`cannot read method declaration: ${statement}`);
  }
  return { name, params, result, doc: pythonStrings(statement.slice(docAt + 4)) };
}

export function parsePydanticModule(source: string): PyModule {
  const classes = new Map<string, PyClass>();
  const methods: PyMethod[] = [];
  const lines = source.split('\n');
  let current: PyClass | undefined;
  let docLines: string[] | undefined;
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index] ?? '';
    if (docLines !== undefined) {
      const end = raw.indexOf('"""');
      docLines.push(end === -1 ? raw.trim() : raw.slice(0, end).trim());
      if (end !== -1) {
        if (current !== undefined) current.doc = docLines.join('\n').trim();
        docLines = undefined;
      }
      continue;
    }
    const line = stripComment(raw.trim());
    if (line === '' || line === 'pass') continue;
    const header = /^class (\w+)\(([^)]*)\):$/.exec(line);
    if (header) {
      const [, name = '', bases = ''] = header;
      current = { name, bases: bases.split(',').map((base) => base.trim()), fields: [], extraAllow: false, doc: undefined, enumValues: [] };
      classes.set(name, current);
      continue;
    }
    if (line.startsWith('method(')) {
      current = undefined;
      let statement = line;
      while (parenDepth(statement) > 0 && index + 1 < lines.length) statement += ` ${stripComment((lines[++index] ?? '').trim())}`;
      methods.push(parseMethodCall(statement));
      continue;
    }
    if (current === undefined) continue;
    if (line.startsWith('"""')) {
      const rest = line.slice(3);
      const end = rest.indexOf('"""');
      if (end === -1) docLines = [rest];
      else current.doc = rest.slice(0, end).trim();
      continue;
    }
    if (line.startsWith('model_config')) {
      if (/["']extra["']\s*:\s*["']allow["']/.test(line)) current.extraAllow = true;
      continue;
    }
    const member = /^(\w+)\s*=\s*"([^"]*)"$/.exec(line);
    if (member && current.bases.includes('WireEnum')) {
      current.enumValues.push(member[2] ?? '');
      continue;
    }
    const field = /^(\w+)\s*:\s*(.+?)(?:\s+=\s+(.+))?$/.exec(line);
    if (field) {
      const [, name = '', annotation = '', defaultSource] = field;
      current.fields.push({ name, annotation: annotation.trim(), defaultSource: defaultSource?.trim() });
    }
  }
  return { classes, methods };
}
