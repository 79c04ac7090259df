/**
 * The checkout's own files as the tests that read the code see them (the import rules, the files a
 * room kind or a chat platform touches, the protocol's purity, the limits and the fold's
 * fingerprint): every file under a folder, its sub-folders included, sorted; the source files by
 * path from the repository root with "/" between folders; and their code without comments.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

/** The repository root. */
export const REPO_ROOT = resolve(import.meta.dirname, "../..");

/** The three folders that hold the house's source: everything that runs. */
export const SOURCE_ROOTS = ["src", "worker", "durable-objects"] as const;

/** A TypeScript source file's name: `.ts`, not a declaration file (`.d.ts`). */
export const TS_SOURCE = /(?<!\.d)\.ts$/;

/** Every file under folder `dir` (an absolute path), its sub-folders included, by absolute path, sorted. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The files under `folders` (paths from the repository root) whose names match `names`: their paths from the root, "/" between folders, sorted. */
export function sourcePaths(folders: readonly string[] = SOURCE_ROOTS, names: RegExp = TS_SOURCE): string[] {
  return folders
    .flatMap((folder) => filesUnder(join(REPO_ROOT, folder)))
    .filter((file) => names.test(file))
    .map((file) => relative(REPO_ROOT, file).split(sep).join("/"))
    .sort();
}

/** One source file: its path from the repository root, its text, and its code (the text without comments). */
export interface SourceFile {
  path: string;
  text: string;
  code: string;
}

/** The source files sourcePaths names, each read with its code. */
export function sourceFiles(folders: readonly string[] = SOURCE_ROOTS, names: RegExp = TS_SOURCE): SourceFile[] {
  return sourcePaths(folders, names).map((path) => {
    const text = readFileSync(join(REPO_ROOT, path), "utf8");
    return { path, text, code: withoutComments(text) };
  });
}

/** `text` without its block comments and its line comments (a line comment starts at `//` not inside a string, a URL or a regular expression's `\/\/`). */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}
