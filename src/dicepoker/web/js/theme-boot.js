// Applies the stored colour theme before the first paint: a classic (blocking) script in <head>, because the
// CSP forbids inline scripts and a module would run only after the page has been painted once (a white flash).
// The choice ("light", "dark" or "system") lives in localStorage under dicepoker.theme; "system" follows
// prefers-color-scheme, also when the system's setting changes while the page is open. js/theme.js is the toggle.
(function () {
  var KEY = "dicepoker.theme";
  var root = document.documentElement;
  var dark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function choice() {
    try {
      var stored = localStorage.getItem(KEY);
      return stored === "light" || stored === "dark" ? stored : "system";
    } catch (e) {
      return "system"; // storage disabled: follow the system
    }
  }

  function apply() {
    var chosen = choice();
    root.setAttribute("data-theme-choice", chosen);
    root.setAttribute("data-theme", chosen === "system" ? (dark && dark.matches ? "dark" : "light") : chosen);
  }

  apply();
  if (dark && dark.addEventListener) dark.addEventListener("change", apply);
  window.addEventListener("storage", function (event) {
    if (event.key === KEY) apply(); // another tab changed it
  });
  window.dicepokerApplyTheme = apply;
})();
