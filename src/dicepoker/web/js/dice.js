// Dice drawn as SVG: standard pip dice, suited dice (Dice Hold'em) and poker dice 9..A (PeekPoker).
import { html } from "../vendor/htm-preact.js";

const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 26], [72, 26], [28, 50], [72, 50], [28, 74], [72, 74]],
};

// Suited dice (DI-3): body and pip colours with readable contrast.
export const SUITS = {
  r: { name: "red", body: "#c62828", pip: "#ffffff", edge: "#8e1b1b" },
  b: { name: "black", body: "#1f2328", pip: "#ffffff", edge: "#000000" },
  w: { name: "white", body: "#fbfbf7", pip: "#1f2328", edge: "#9aa0a6" },
  y: { name: "yellow", body: "#f4c20d", pip: "#1f2328", edge: "#a88400" },
};

// Poker dice faces (DI-2): 9 and K red; 10 and Q black; J and A green.
export const POKER_FACES = {
  9: { label: "9", name: "nine", colour: "#c62828" },
  T: { label: "10", name: "ten", colour: "#1f2328" },
  J: { label: "J", name: "jack", colour: "#1b7a3a" },
  Q: { label: "Q", name: "queen", colour: "#1f2328" },
  K: { label: "K", name: "king", colour: "#c62828" },
  A: { label: "A", name: "ace", colour: "#1b7a3a" },
};

function Body({ fill, edge }) {
  return html`<rect x="4" y="4" width="92" height="92" rx="18" fill=${fill} stroke=${edge} stroke-width="3" />`;
}

function pipFace(face, pip) {
  return (PIPS[face] || []).map(([cx, cy]) => html`<circle cx=${cx} cy=${cy} r="9" fill=${pip} />`);
}

// One die. kind: "pip" (face 1-6), "suited" (text "4r"), "poker" (text "9".."A"), "hidden" (a face-down die).
export function Die({ kind = "pip", value, held = false, rolling = false, size = 56, small = false, label }) {
  let inner;
  let name;
  if (kind === "hidden" || value == null || value === 0) {
    inner = html`<${Body} fill="#3b4a63" edge="#22304a" />
      <text x="50" y="63" text-anchor="middle" font-size="40" font-weight="700" fill="#c8d3e6">?</text>`;
    name = "hidden die";
  } else if (kind === "suited") {
    const face = Number(String(value)[0]);
    const suit = SUITS[String(value)[1]] || SUITS.w;
    inner = html`<${Body} fill=${suit.body} edge=${suit.edge} />${pipFace(face, suit.pip)}`;
    name = `${face} ${suit.name}`;
  } else if (kind === "poker") {
    const face = POKER_FACES[value] || { label: String(value), name: String(value), colour: "#1f2328" };
    inner = html`<${Body} fill="#fbfbf7" edge="#9aa0a6" />
      <text x="50" y=${face.label.length > 1 ? 66 : 68} text-anchor="middle" font-size=${face.label.length > 1 ? 44 : 52}
        font-weight="800" font-family="Georgia, 'Times New Roman', serif" fill=${face.colour}>${face.label}</text>`;
    name = face.name;
  } else {
    inner = html`<${Body} fill="#fbfbf7" edge="#9aa0a6" />${pipFace(Number(value), "#1f2328")}`;
    name = String(value);
  }
  const px = small ? Math.round(size * 0.62) : size;
  return html`<svg class=${`die${held ? " held" : ""}${rolling ? " rolling" : ""}`} viewBox="0 0 100 100"
    width=${px} height=${px} role="img" aria-label=${label || name} focusable="false">${inner}</svg>`;
}

// A row of dice that are only shown (no interaction).
export function DiceRow({ kind, dice, rolling = false, small = false, label }) {
  return html`<div class="dice-row" role="group" aria-label=${label || "dice"}>
    ${dice.map((value) => html`<${Die} kind=${kind} value=${value} rolling=${rolling} small=${small} />`)}
  </div>`;
}

// Parse a PeekPoker dice string ("Q K A") into faces.
export function pokerFaces(text) {
  return text ? text.split(/\s+/).filter(Boolean) : [];
}
