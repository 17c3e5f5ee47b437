// The light / dark / system toggle in the top bar. js/theme-boot.js applies the theme (before the first paint);
// this component stores the player's choice and asks the boot script to apply it again.
import { html, useState } from "../vendor/htm-preact.js";

const KEY = "dicepoker.theme";
const CHOICES = [
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
  { value: "system", label: "Auto", title: "Follow the system's setting" },
];

export function storedTheme() {
  return document.documentElement.getAttribute("data-theme-choice") || "system";
}

export function setTheme(value) {
  try {
    if (value === "system") localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, value);
  } catch {
    // storage disabled: nothing can be remembered; the page follows the system
  }
  if (window.dicepokerApplyTheme) window.dicepokerApplyTheme();
}

export function ThemeToggle() {
  const [chosen, setChosen] = useState(storedTheme());
  const choose = (value) => {
    setTheme(value);
    setChosen(value);
  };
  return html`<div class="theme-toggle" role="group" aria-label="Colour theme" data-testid="theme-toggle">
    ${CHOICES.map((c) => html`<button type="button" aria-pressed=${chosen === c.value ? "true" : "false"}
      data-theme-value=${c.value} title=${c.title || `${c.label} theme`} onClick=${() => choose(c.value)}>${c.label}</button>`)}
  </div>`;
}
