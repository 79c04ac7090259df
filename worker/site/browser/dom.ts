/**
 * The few DOM APIs the viewer uses, typed here: the project compiles against the Workers types,
 * which have no DOM, and the viewer needs only these. `page()` is the browser's document.
 */

/** An element, as far as the viewer touches one. */
export interface ViewElement {
  textContent: string | null;
  className: string;
  hidden: boolean;
  append(...nodes: (ViewElement | string)[]): void;
  replaceChildren(...nodes: (ViewElement | string)[]): void;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
}

/** The document and location, as far as the viewer touches them. */
export interface ViewPage {
  getElementById(id: string): ViewElement | null;
  createElement(tag: string): ViewElement;
  readonly location: { readonly hash: string; readonly host: string; readonly protocol: string };
}

/** The browser's document (with its location). */
export function page(): ViewPage {
  const { document } = globalThis as unknown as {
    document: Omit<ViewPage, "location"> & { location: ViewPage["location"] };
  };
  return document;
}

/** The element with `id`; the viewer's page always has it. */
export function byId(doc: ViewPage, id: string): ViewElement {
  const element = doc.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element;
}

/** A new element with a class and text. */
export function el(doc: ViewPage, tag: string, className: string, text?: string): ViewElement {
  const element = doc.createElement(tag);
  element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}
