// The DOM's lookups, typed loosely for the page's JavaScript: a selector or a closest() names
// an element whose kind (input, dialog, button) the code knows and the type
// checker cannot; everything else of the DOM keeps its standard types.
interface ParentNode {
  querySelector(selectors: string): any;
  querySelectorAll(selectors: string): NodeListOf<any>;
}
interface Element {
  closest(selectors: string): any;
}
