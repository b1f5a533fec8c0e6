// The page builder: h() makes a virtual node (Preact, vendored in /static/vendor), and
// render() puts a whole tree on the page, changing only what differs from the last
// time. Data only ever enters the page as text or attribute values, never as HTML.
import { h as createElement, render as preactRender, Component, createRef } from "../vendor/preact/preact.js";

/** @typedef {import("../vendor/preact/preact.js").ComponentChildren} Child */
/** @typedef {import("../vendor/preact/preact.js").VNode<any>} VNode */
/** @typedef {Record<string, any> | null | undefined} Attrs */

/**
 * Attributes as this project writes them: `class` may be a list (falsy items dropped),
 * null / undefined / false leave an attribute out.
 * @param {Attrs} attrs
 */
function props(attrs) {
  /** @type {Record<string, any>} */
  const out = {};
  if (!attrs) return out;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    out[k] = k === "class" && Array.isArray(v) ? v.filter(Boolean).join(" ") : v;
  }
  return out;
}

/**
 * h("button", {class: "btn", onclick}, "text", child, [more]). The attributes may be
 * left out: a node, text or list there is a child.
 * @param {string | import("../vendor/preact/preact.js").ComponentType<any>} tag
 * @param {Attrs | Child} [attrs]
 * @param {...Child} children
 * @returns {VNode}
 */
export function h(tag, attrs, ...children) {
  if (attrs !== null && attrs !== undefined && (typeof attrs !== "object" || Array.isArray(attrs) || "props" in attrs)) {
    children.unshift(/** @type {Child} */ (attrs));
    attrs = null;
  }
  return createElement(tag, props(/** @type {Attrs} */ (attrs)), ...children);
}

/** The same for SVG elements (Preact knows them by the <svg> around them). */
export const s = h;

/**
 * Draw `tree` into `root`, keeping every element whose place and kind did not change
 * (so a focused input keeps its focus, its text and its selection).
 * @param {Child} tree
 * @param {Element} root
 */
export function render(tree, root) {
  preactRender(tree, root);
}

/**
 * An element made elsewhere (a drawing canvas) placed in the tree: it stays the same
 * element across renders while `node` is the same.
 */
class Foreign extends Component {
  mount = createRef();

  /** @param {{node: Node}} next */
  shouldComponentUpdate(next) {
    return next.node !== this.props.node;
  }

  componentDidMount() {
    this.mount.current?.replaceChildren(this.props.node);
  }

  componentDidUpdate() {
    this.mount.current?.replaceChildren(this.props.node);
  }

  render() {
    return createElement("div", { ref: this.mount, class: this.props.class });
  }
}

/**
 * @param {Node} node
 * @param {{class?: string, key?: string | number}} [opts]
 */
export function foreign(node, { class: cls = "", key } = {}) {
  return createElement(Foreign, { node, class: cls, key });
}

/**
 * One detached element from a tree, for the few things that live outside a page's
 * rendered tree (toasts).
 * @param {VNode} tree
 * @returns {HTMLElement}
 */
export function toElement(tree) {
  const box = document.createElement("div");
  preactRender(tree, box);
  return /** @type {HTMLElement} */ (box.firstElementChild);
}

/**
 * @param {string} sel
 * @param {ParentNode} [root]
 * @returns {any}
 */
export const $ = (sel, root = document) => root.querySelector(sel);

/**
 * An element the page's HTML always has: were it missing, the error names it, where a
 * null would fail later and elsewhere.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from the page`);
  return el;
}
