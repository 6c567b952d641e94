// Hand-drawn SVG charts, each in a <figure> with the same numbers as a table beside it (the
// picture is hidden from screen readers; the table is what they read). Nothing here styles
// an element inline: the strict Content-Security-Policy forbids style attributes, so shapes
// carry SVG presentation attributes (positions, sizes) and classes, and style.css colours
// them. Series differ by marker shape and dash as well as colour.
//
//   lineChart({id, title, xs, series: [{label, values}], yLabel, table})
//   barChart({id, title, xs, values, yLabel, table})
// xs: the labels along the bottom; values: numbers or null (no point); table: {head, rows}
// (rows of cells, the first a row header; a column's head is its name, or {text, name} when
// it shows less than its name: a screen reader says the name).

import { h, points } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 320; // the drawing's own units: it scales with its box
const H = 170;
const PAD = { left: 44, right: 10, top: 20, bottom: 26 };
const MARKERS = ["circle", "square", "triangle", "diamond"];

/** An SVG element with attributes (presentation attributes and classes only). */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined) el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** A round step for the axis: 1, 2 or 5 times a power of ten, some four steps to the range. */
function niceStep(range) {
  const rough = Math.max(range, 1) / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= rough);
}

// The vertical scale: from the lowest value (or 0) to the highest (or 0), on round steps.
function scale(values) {
  const known = values.filter((v) => typeof v === "number");
  const low = Math.min(0, ...known);
  const high = Math.max(0, ...known);
  const step = niceStep(high - low);
  const bottom = Math.floor(low / step) * step;
  const top = Math.max(Math.ceil(high / step) * step, bottom + step);
  const y = (v) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - (v - bottom) / (top - bottom));
  const ticks = [];
  for (let v = bottom; v <= top + step / 2; v += step) ticks.push(v);
  return { y, ticks };
}

function xAt(i, count) {
  const width = W - PAD.left - PAD.right;
  return count <= 1 ? PAD.left + width / 2 : PAD.left + (width * i) / (count - 1);
}

// The labels along the bottom are centred under their points, but the drawing is cut at its
// box's edges (the dialog's edge on a phone), and a line chart's last point sits 10 units in
// from the right one: a label that would run past an edge ends there instead. Its width is
// estimated (the drawing is built before it is in the page, so nothing can be measured yet),
// generously, from its characters at style.css's 9px (.chart-svg text); the drawing scales
// with its box, so the estimate holds at every size.
const CHAR_WIDTH = 9 * 0.65;
const labelWidth = (label) => String(label).length * CHAR_WIDTH;

function xLabel(label, x) {
  const half = labelWidth(label) / 2;
  const [at, anchor] = x + half > W - 1 ? [W - 1, "end"] : x - half < 1 ? [1, "start"] : [x, "middle"];
  return s("text", { class: "chart-x", x: at, y: H - 8, "text-anchor": anchor }, label);
}

// Axes: a line and label for each round value, and the labels along the bottom: as many as
// fit apart, the last one moved in from the edge included, counted back from the last, which
// is always shown.
function axes(ys, xs, xOf) {
  const step = xs.length > 1 ? xOf(1) - xOf(0) : W;
  const last = xs.length - 1;
  const movedIn = Math.max(0, xOf(last) + labelWidth(xs[last] ?? "") / 2 - (W - 1));
  const every = Math.max(1, Math.ceil((Math.max(0, ...xs.map(labelWidth)) + 4 + movedIn) / step));
  return [
    ys.ticks.map((v) => s("g", { class: v === 0 ? "chart-grid chart-zero" : "chart-grid" },
      s("line", { x1: PAD.left, x2: W - PAD.right, y1: ys.y(v), y2: ys.y(v) }),
      s("text", { x: PAD.left - 5, y: ys.y(v) + 3.5, "text-anchor": "end" }, points(v)))),
    xs.map((label, i) => ((xs.length - 1 - i) % every === 0 ? xLabel(label, xOf(i)) : null)),
  ];
}

function marker(kind, x, y, title) {
  const r = 3.4;
  const shape = {
    circle: () => s("circle", { cx: x, cy: y, r }),
    square: () => s("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r }),
    triangle: () => s("polygon", { points: `${x},${y - r - 1} ${x + r + 1},${y + r} ${x - r - 1},${y + r}` }),
    diamond: () => s("polygon", { points: `${x},${y - r - 1} ${x + r + 1},${y} ${x},${y + r + 1} ${x - r - 1},${y}` }),
  }[kind]();
  shape.append(s("title", {}, title));
  return shape;
}

function figure(id, title, svg, legend, table) {
  return h("figure", { class: "chart", "data-chart": id },
    h("figcaption", { class: "chart-title", text: title }),
    h("div", { class: "chart-body" },
      h("div", { class: "chart-picture" }, svg, legend),
      dataTable(title, table)));
}

/** The chart's numbers as a table: {head: [column names], rows: [[row name, cells...]]}. */
function dataTable(title, { head, rows }) {
  return h("div", { class: "chart-table-box" }, h("table", { class: "chart-table", "data-chart-table": true },
    h("caption", { class: "sr-only", text: title }),
    h("thead", {}, h("tr", {}, head.map((col) => (typeof col === "object"
      ? h("th", { scope: "col", "aria-label": col.name, text: col.text })
      : h("th", { scope: "col", text: col }))))),
    h("tbody", {}, rows.map(([name, ...cells]) => h("tr", {},
      h("th", { scope: "row", text: name }),
      cells.map((cell) => h("td", { text: typeof cell === "number" ? points(cell) : cell ?? "–" })))))));
}

/** Lines through the values of each series, one marker per value. */
export function lineChart({ id, title, xs, series, yLabel, table }) {
  const ys = scale(series.flatMap((one) => one.values));
  const xOf = (i) => xAt(i, xs.length);
  const svg = s("svg", { class: "chart-svg", viewBox: `0 0 ${W} ${H}`, "aria-hidden": "true", focusable: "false" },
    s("text", { class: "chart-y-label", x: 4, y: 9 }, yLabel),
    axes(ys, xs, xOf),
    series.map((one, k) => {
      const at = one.values.map((v, i) => (typeof v === "number" ? [xOf(i), ys.y(v), v, i] : null)).filter(Boolean);
      return s("g", { class: `chart-series series-${k % MARKERS.length}`, "data-series": one.label },
        at.length > 1 ? s("polyline", { points: at.map(([x, y]) => `${x},${y}`).join(" "), fill: "none" }) : null,
        at.map(([x, y, v, i]) => marker(MARKERS[k % MARKERS.length], x, y, `${one.label}, ${xs[i]}: ${points(v)}`)));
    }));
  const legend = series.length > 1 ? h("ul", { class: "chart-legend", "aria-hidden": "true" },
    series.map((one, k) => h("li", { class: `series-${k % MARKERS.length}` },
      h("span", { class: `chart-key key-${MARKERS[k % MARKERS.length]}` }), one.label))) : null;
  return figure(id, title, svg, legend, table);
}

/** One bar per value, up from zero (down for a negative value). */
export function barChart({ id, title, xs, values, yLabel, table }) {
  const ys = scale(values);
  const slot = (W - PAD.left - PAD.right) / Math.max(xs.length, 1);
  const width = Math.max(2, Math.min(36, slot * 0.7));
  const xOf = (i) => PAD.left + slot * (i + 0.5);
  const svg = s("svg", { class: "chart-svg", viewBox: `0 0 ${W} ${H}`, "aria-hidden": "true", focusable: "false" },
    s("text", { class: "chart-y-label", x: 4, y: 9 }, yLabel),
    axes(ys, xs, xOf),
    values.map((v, i) => {
      if (typeof v !== "number") return null;
      const top = Math.min(ys.y(v), ys.y(0));
      return s("rect", { class: v < 0 ? "chart-bar chart-bar-below" : "chart-bar", x: xOf(i) - width / 2, y: top,
        width, height: Math.max(Math.abs(ys.y(v) - ys.y(0)), v === 0 ? 0 : 1) },
      s("title", {}, `${xs[i]}: ${points(v)}`));
    }));
  return figure(id, title, svg, null, table);
}
