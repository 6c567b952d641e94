// An invitation's QR code, drawn in the page as SVG from lean-qr's encoder (pinned with its
// hash in build.py, served from dist/vendor/qr/): no request leaves the page for it. Loaded
// with the host's table only.

import { generate } from "../vendor/qr/index.mjs";

const SVG = "http://www.w3.org/2000/svg";
const QUIET = 4; // the light margin a reader needs around the code, in modules

/** An <svg> of the QR code of text: one path of its dark modules, on a light square. */
export function qrCode(text, label) {
  const code = generate(text);
  const side = code.size + 2 * QUIET;
  const dark = [];
  for (let y = 0; y < code.size; y++) {
    for (let x = 0; x < code.size; x++) if (code.get(x, y)) dark.push(`M${x + QUIET} ${y + QUIET}h1v1h-1z`);
  }
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.dataset.qr = String(code.size);
  const back = document.createElementNS(SVG, "rect");
  back.setAttribute("width", String(side));
  back.setAttribute("height", String(side));
  back.setAttribute("fill", "#fff");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", dark.join(""));
  path.setAttribute("fill", "#000");
  svg.append(back, path);
  return svg;
}
