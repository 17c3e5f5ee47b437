// Small inline SVG icons for controls: the media glyphs (⏮ ⏭ ⏸ …) are missing from many system fonts and show
// as empty boxes, while an SVG drawn here looks the same everywhere. Decorative: the button carries the name.
import { html } from "../vendor/htm-preact.js";

const PATHS = {
  first: "M5 4h2v16H5zM19 4v16L8 12z",
  previous: "M17 4v16L6 12z",
  play: "M7 4v16l12-8z",
  pause: "M6 4h4v16H6zM14 4h4v16h-4z",
  next: "M4 4v16l8-8zM12 4v16l8-8z",
  last: "M17 4h2v16h-2zM5 4v16l11-8z",
};

export function Icon({ name, size = 18 }) {
  return html`<svg class="icon" width=${size} height=${size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d=${PATHS[name]} fill="currentColor" /></svg>`;
}
