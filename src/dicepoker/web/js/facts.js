// Every game's facts as the games declare them (GET /api/games: titles, rules sections, view, sample dice, bots).
// One fetch per page load, shared by every page; the browser keeps no table of its own about any game.
import { useEffect, useState } from "../vendor/htm-preact.js";
import { api } from "./api.js";

let pending = null;
let loaded = null;

export function loadGames() {
  pending = pending || api.games().then((data) => {
    loaded = data.games || [];
    return loaded;
  }).catch((err) => {
    pending = null; // a failed fetch is tried again by the next page that asks
    throw err;
  });
  return pending;
}

// The games' facts once fetched (null until then); onError hears of a failed fetch.
export function useGames(onError) {
  const [games, setGames] = useState(loaded);
  useEffect(() => {
    // Loaded between this render and its effect (another page part asked first): take it, or wait forever.
    if (loaded) {
      setGames(loaded);
      return undefined;
    }
    let alive = true;
    loadGames().then((g) => alive && setGames(g)).catch((e) => alive && onError && onError(e));
    return () => { alive = false; };
  }, []);
  return games;
}

// One game's facts, or null (not loaded yet, or a game this server does not offer).
export function factsOf(games, name) {
  return (games || []).find((g) => g.name === name) || null;
}
