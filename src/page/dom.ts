/**
 * The few DOM APIs the browser pages use (the principal window's page, src/view/page, and what the
 * relay's viewer shares with it, worker/site/browser), typed here: the project compiles against the
 * Workers and Node types, which have no DOM. Text goes into the document only as text
 * (`textContent`, text nodes): nothing the relay or a seat wrote is ever parsed as markup.
 */

/** An element, as far as the page touches one. */
export interface El {
  id: string;
  textContent: string | null;
  className: string;
  hidden: boolean;
  /** For buttons. */
  disabled: boolean;
  /** For inputs and text areas. */
  value: string;
  /** For <details>. */
  open: boolean;
  scrollTop: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
  append(...nodes: (El | string)[]): void;
  replaceChildren(...nodes: (El | string)[]): void;
  setAttribute(name: string, value: string): void;
  getAttribute(name: string): string | null;
  addEventListener(type: "click", listener: () => void): void;
}

/** The document, as far as the page touches it. */
export interface Doc {
  getElementById(id: string): El | null;
  createElement(tag: string): El;
  querySelectorAll(selector: string): Iterable<El>;
  readonly location: { readonly hash: string };
}

/** Where the page keeps its token for this tab, and how it takes it out of the address bar. */
export interface Tab {
  readonly sessionStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  readonly history: { replaceState(data: null, unused: string, url: string): void };
}

/** The browser's window, as far as the page touches it. */
export function theTab(): Tab {
  return globalThis as unknown as Tab;
}

/** The browser's document. */
export function theDocument(): Doc {
  return (globalThis as unknown as { document: Doc }).document;
}

/** The element with `id`; the page's HTML always has it. */
export function byId(doc: Doc, id: string): El {
  const element = doc.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element;
}

/** A new element with a class, holding `children` (strings become text). */
export function h(doc: Doc, tag: string, className: string, ...children: (El | string)[]): El {
  const element = doc.createElement(tag);
  if (className !== "") element.className = className;
  element.append(...children);
  return element;
}

/** A button with `label` that runs `onClick`. */
export function button(doc: Doc, className: string, label: string, onClick: () => void): El {
  const element = h(doc, "button", className, label);
  element.setAttribute("type", "button");
  element.addEventListener("click", onClick);
  return element;
}
