/**
 * Declared wire types for the packed library (decision 0425). tsc's declarations of the zod
 * schemas spell out every schema's full zod type (megabytes that each consumer's compiler has to
 * load and instantiate); this rewrites them after the emit: every schema constant in dist/lib is
 * declared as `z.ZodType<T>` and every `z.infer`/`z.input` alias as `T`, where the T are plain
 * TypeScript types printed by the compiler from the schemas themselves into one generated file,
 * dist/lib/protocol/wire-types.d.ts (each named type used by name inside the others). A check
 * program then proves each declared type and the schema's own inferred type mutually assignable,
 * so the two cannot drift: the build fails if they do.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";

const PRINT =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope |
  ts.TypeFormatFlags.AllowUniqueESSymbolType;
/** An alias of a schema's inferred type: `z.infer<typeof S>`, `z.output<typeof S>` or `z.input<typeof S>`. */
const INFERRED = /^z\.(infer|output|input)<typeof (\w+)>$/;
/** The generated file, relative to the library root. */
const WIRE = "protocol/wire-types.d.ts";

/** Whether `type` is a zod schema (it carries zod's `_zod` internals). */
function isSchema(type) {
  return type.getProperty("_zod") !== undefined && type.getProperty("parse") !== undefined;
}

/** The output (or input) type of a schema type, read from its `_zod` internals. */
function inferred(checker, type, node, which) {
  const internals = checker.getTypeOfSymbolAtLocation(type.getProperty("_zod"), node);
  return checker.getTypeOfSymbolAtLocation(internals.getProperty(which), node);
}

/**
 * Everything the rewrite needs from the source program: per source file (relative to `src`),
 * its schema constants and its inferred aliases, and the printed text of every named type.
 */
function collect(program, srcRoot) {
  const checker = program.getTypeChecker();
  const names = new Map(); // type name -> printed text
  const files = new Map(); // relative path without extension -> { schemas: Map<const, type name>, aliases: Map<alias, type name> }
  const taken = new Set();
  const nameOfType = new Map(); // schema type -> name of its output type
  const tuplesOf = new Map(); // source file -> its entry in `files`
  for (const source of program.getSourceFiles()) {
    if (source.isDeclarationFile || !source.fileName.startsWith(srcRoot)) continue;
    const file = { schemas: new Map(), aliases: new Map(), tuples: new Map() };
    const schemaNodes = new Map(); // schema const -> its name node
    const outputName = new Map(); // schema const -> name of its output type
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name)) continue;
        const type = checker.getTypeAtLocation(declaration.name);
        if (!isSchema(type)) continue;
        file.schemas.set(declaration.name.text, { type, node: declaration.name });
        schemaNodes.set(declaration.name.text, declaration.name);
      }
    }
    for (const statement of source.statements) {
      if (!ts.isTypeAliasDeclaration(statement) || statement.typeParameters) continue;
      const match = INFERRED.exec(statement.type.getText(source));
      const schema = match && file.schemas.get(match[2]);
      if (!schema) continue;
      const which = match[1] === "input" ? "input" : "output";
      const name = statement.name.text;
      names.set(name, checker.typeToString(inferred(checker, schema.type, schema.node, which), undefined, PRINT));
      taken.add(name);
      file.aliases.set(name, name);
      if (which === "output" && !outputName.has(match[2])) outputName.set(match[2], name);
    }
    for (const [constName, schema] of file.schemas) {
      let name = outputName.get(constName);
      if (!name) {
        name = `${constName}Output`;
        for (let n = 2; taken.has(name); n += 1) name = `${constName}Output${n}`;
        taken.add(name);
        names.set(name, checker.typeToString(inferred(checker, schema.type, schema.node, "output"), undefined, PRINT));
      }
      file.schemas.set(constName, name);
    }
    for (const [constName, name] of file.schemas)
      nameOfType.set(checker.getTypeAtLocation(schemaNodes.get(constName)), name);
    if (file.schemas.size > 0) files.set(relative(srcRoot, source.fileName).replace(/\.ts$/, ""), file);
    tuplesOf.set(source, file);
  }
  // Tuples of schemas (a list of the kinds a union accepts): each element by the name of its schema.
  for (const [source, file] of tuplesOf) {
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name)) continue;
        const type = checker.getTypeAtLocation(declaration.name);
        if (!checker.isTupleType(type)) continue;
        const elements = checker.getTypeArguments(type);
        if (elements.length === 0 || !elements.every((e) => isSchema(e))) continue;
        file.tuples.set(
          declaration.name.text,
          elements.map((element, i) => {
            if (nameOfType.has(element)) return nameOfType.get(element);
            const name = `${declaration.name.text}_${i}Output`;
            names.set(
              name,
              checker.typeToString(inferred(checker, element, declaration.name, "output"), undefined, PRINT),
            );
            nameOfType.set(element, name);
            return name;
          }),
        );
      }
    }
    if (file.tuples.size > 0) files.set(relative(srcRoot, source.fileName).replace(/\.ts$/, ""), file);
  }
  return { names, files };
}

/** Uses each named type by name inside the others (smallest first, so every text is rewritten alike). */
function shareNames(names) {
  const order = [...names.keys()].sort((a, b) => names.get(a).length - names.get(b).length || (a < b ? -1 : 1));
  const texts = new Map(names);
  const canonical = new Map(); // text -> first name printed with it
  for (const name of order) {
    const text = texts.get(name);
    if (canonical.has(text) && text.length >= 24) {
      texts.set(name, canonical.get(text));
      continue;
    }
    canonical.set(text, name);
    if (text.length < 24 || !(text.startsWith("{") || text.includes(" | "))) continue;
    for (const other of order) {
      if (other === name || texts.get(other).length <= text.length) continue;
      texts.set(other, texts.get(other).split(text).join(name));
    }
  }
  return texts;
}

/** Rewrites one emitted declaration file: schema constants as `z.ZodType<T>`, inferred aliases as `T`. */
function rewrite(path, file, wireImport) {
  const text = readFileSync(path, "utf8");
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const edits = [];
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const name = ts.isIdentifier(declaration.name) && file.schemas.get(declaration.name.text);
        if (name && declaration.type)
          edits.push([declaration.type.getStart(source), declaration.type.end, `z.ZodType<W.${name}>`]);
        const tuple = ts.isIdentifier(declaration.name) && file.tuples.get(declaration.name.text);
        if (tuple && declaration.type) {
          const readonly = ts.isTypeOperatorNode(declaration.type) ? "readonly " : "";
          edits.push([
            declaration.type.getStart(source),
            declaration.type.end,
            `${readonly}[${tuple.map((n) => `z.ZodType<W.${n}>`).join(", ")}]`,
          ]);
        }
      }
    } else if (ts.isTypeAliasDeclaration(statement) && file.aliases.has(statement.name.text)) {
      edits.push([statement.type.getStart(source), statement.type.end, `W.${file.aliases.get(statement.name.text)}`]);
    }
  }
  if (edits.length === 0) return;
  let out = text;
  for (const [start, end, replacement] of edits.sort((a, b) => b[0] - a[0]))
    out = out.slice(0, start) + replacement + out.slice(end);
  if (!/^import (\{ z \}|\* as z) from "zod";$/m.test(out)) out = `import type { z } from "zod";\n${out}`;
  writeFileSync(path, `import type * as W from "${wireImport}";\n${out}`);
}

/** Types the generated file refers to by name without declaring them, imported from the protocol's index. */
function freeNames(text, declared, program, srcRoot) {
  const checker = program.getTypeChecker();
  const index = program.getSourceFile(join(srcRoot, "protocol/index.ts"));
  const exported = new Set(checker.getExportsOfModule(checker.getSymbolAtLocation(index)).map((s) => s.name));
  const used = new Set(text.match(/(?<![\w."'$])[A-Z]\w*(?=[^\w"'(:]|$)/g) ?? []);
  return [...used].filter((name) => !declared.has(name) && exported.has(name));
}

/** The mutual-assignability check, one line per declared type, against the schemas in the source. */
function checkSource(files, srcRoot, checkPath, wirePath) {
  const lines = [
    `import type { z } from "zod";`,
    `import type * as W from "./${relative(dirname(checkPath), wirePath).replace(/\.d\.ts$/, ".js")}";`,
    `type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;`,
  ];
  let n = 0;
  for (const [path, file] of files) {
    const module = `./${relative(dirname(checkPath), join(srcRoot, path))}.js`;
    lines.push(`import type * as S${n} from "${module}";`);
    for (const [constName, name] of file.schemas)
      lines.push(`export const c${n}_${constName}: Same<W.${name}, z.output<typeof S${n}.${constName}>> = true;`);
    n += 1;
  }
  return lines.join("\n");
}

/**
 * Rewrites the declarations in `lib` (emitted by `program`, sources under `srcRoot`) and checks
 * them; throws listing every declared type that differs from its schema (and any error in the
 * rewritten declarations).
 */
export function declareTypes(program, srcRoot, lib) {
  const { names, files } = collect(program, srcRoot);
  const texts = shareNames(names);
  const wirePath = join(lib, WIRE);
  const declared = new Set(texts.keys());
  const body = [...texts].map(([name, text]) => `export type ${name} = ${text};`).join("\n");
  const imports = freeNames(body, declared, program, srcRoot);
  const header = `/** Generated by scripts/declare-types.mjs from the zod schemas in src/protocol: the wire types as plain TypeScript (decision 0425). */\n`;
  const importLine = imports.length > 0 ? `import type { ${imports.join(", ")} } from "./index.js";\n` : "";
  writeFileSync(wirePath, `${header}${importLine}${body}\n`);
  for (const [path, file] of files) {
    const emitted = join(lib, `${path}.d.ts`);
    const wireImport = relative(dirname(emitted), wirePath).replace(/\.d\.ts$/, ".js");
    rewrite(emitted, file, wireImport.startsWith(".") ? wireImport : `./${wireImport}`);
  }
  // Only exported schemas can be checked from outside their file; the rest are checked through the types that use them.
  const exportedFiles = new Map(
    [...files].map(([path, file]) => [
      path,
      { schemas: new Map([...file.schemas].filter(([c]) => isExported(program, srcRoot, path, c))) },
    ]),
  );
  const checkPath = join(srcRoot, "..", ".declared-types-check.ts");
  const checkText = checkSource(exportedFiles, srcRoot, checkPath, wirePath);
  const options = {
    ...program.getCompilerOptions(),
    noEmit: true,
    declaration: false,
    outDir: undefined,
    skipLibCheck: false,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (f) => (f === checkPath ? checkText : readFile(f));
  host.fileExists = (
    (exists) => (f) =>
      f === checkPath || exists(f)
  )(host.fileExists.bind(host));
  const check = ts.createProgram({ rootNames: [checkPath], options, host, oldProgram: program });
  // The check file, and every rewritten declaration as a consumer's compiler without skipLibCheck would read it.
  const wrong = check
    .getSourceFiles()
    .filter((f) => f.fileName === checkPath || f.fileName.startsWith(lib))
    .flatMap((f) => check.getSemanticDiagnostics(f));
  if (wrong.length > 0) {
    const format = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => srcRoot, getNewLine: () => "\n" };
    throw new Error(
      `declared wire types differ from their schemas:\n${ts.formatDiagnostics(wrong.slice(0, 20), format)}`,
    );
  }
}

/** Whether the constant `name` of the source file at `path` (relative to `srcRoot`, no extension) is exported. */
function isExported(program, srcRoot, path, name) {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(join(srcRoot, `${path}.ts`));
  return checker.getExportsOfModule(checker.getSymbolAtLocation(source)).some((s) => s.name === name);
}
