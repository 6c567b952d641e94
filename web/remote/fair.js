// A fair deal at a remote table (docs/remote.md; the engine's side: calypso_core/table/
// fair.py). The host draws a secret seed and sends each guest its commitment (SHA-256, hex)
// with the seat; only then does the guest send a seed of its own. The deal's seed mixes them
// all (the engine's fair_deal). When the game ends the host sends everyone the recipe and the
// seeds ({t: "reveal"}); a guest's page checks the commitment and that its seed is in the
// mix at once, and on request loads the engine to replay the game from the seeds
// (fair_check). A host that lies about its seed is caught; what it saw meanwhile is not
// hidden from it (it runs the game: every hand is on its device).

import { EngineClient, EngineError } from "../engine-client.js";
import { hasWords, onLanguage, say, t } from "../i18n.js";
import { newToken } from "./wire.js";

/** SHA-256 of a seed's text, in hex: the commitment (fair.py's commitment). */
export async function commitmentOf(seed) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(seed));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A new secret seed: 128 random bits in hex (a guessable one would deal every hand). */
export const newSeed = newToken;

/** The host's side: its secret, its commitment, and the guests' seeds as they come. */
export class FairDeal {
  constructor(secret = newSeed()) {
    this.secret = secret;
    this.commitment = commitmentOf(secret);
    this.seeds = new Map(); // seat -> the guest's seed (its first one: a seed never changes)
    this.dealt = false; // the deal's seed is made: no seed is taken in any more
  }

  /** The fair deal kept before a reload ({secret, seeds, dealt}: kept()), else a new one. */
  static from(kept) {
    const seed = /^[0-9a-f]{32}$/;
    if (typeof kept?.secret !== "string" || !seed.test(kept.secret)) return new FairDeal();
    const fair = new FairDeal(kept.secret);
    for (const [seat, guest] of Object.entries(kept.seeds ?? {})) {
      if (/^[0-3]$/.test(seat) && typeof guest === "string" && seed.test(guest)) fair.take(Number(seat), guest);
    }
    fair.dealt = kept.dealt === true;
    return fair;
  }

  /** What a reload needs of it: {secret, seeds: {seat: seed}, dealt}. */
  kept() {
    return { secret: this.secret, seeds: this._guests(), dealt: this.dealt };
  }

  /** Takes a guest's seed; false (nothing changed) when the seat sent another before, or
   * sends its first once the deal is made (the mix is what dealt the cards: a seed added
   * later would make the reveal disagree with the deal). */
  take(seat, seed) {
    if (this.seeds.has(seat)) return this.seeds.get(seat) === seed;
    if (this.dealt) return false;
    this.seeds.set(seat, seed);
    return true;
  }

  /** Whether the deal was made without this seat's seed (its guest was away). */
  leftOut(seat) {
    return this.dealt && !this.seeds.has(seat);
  }

  hasAll(seats) {
    return seats.every((seat) => this.seeds.has(seat));
  }

  /** The deal's seed, from the engine (the one definition of the mix). */
  async dealSeed(engine) {
    this.dealt = true;
    return (await engine.request("fair_deal", { host: this.secret, guests: this._guests() })).seed;
  }

  /** The message that ends a fair game: the recipe and every seed. */
  reveal(recipe) {
    return {
      t: "reveal", recipe: { record: recipe.record, settings: recipe.settings, history: recipe.history ?? [] },
      host: this.secret, guests: this._guests(),
    };
  }

  _guests() {
    return Object.fromEntries([...this.seeds].map(([seat, seed]) => [String(seat), seed]));
  }
}

/** What a guest can check of a reveal without the engine: "ok", "bad_commitment" (the
 * host's seed is not the one it committed to), "bad_mine" (this guest's seed is not in it,
 * or one it never sent is) or "left_out" (seed null: the match was dealt while this guest
 * was away, and the reveal says so). */
export async function checkReveal(reveal, { commitment, seat, seed }) {
  if (typeof reveal.host !== "string" || (await commitmentOf(reveal.host)) !== commitment) return "bad_commitment";
  const revealed = reveal.guests?.[String(seat)];
  if (seed === null) return revealed === undefined ? "left_out" : "bad_mine";
  if (revealed !== seed) return "bad_mine";
  return "ok";
}

/**
 * A guest's panel on fairness: what each party sees, then the check of the reveal and the
 * offer to replay the game with the engine (this tab's own worker, loaded only then).
 * @param {HTMLElement} where
 */
export function fairnessPanel(where) {
  const panel = document.createElement("section");
  panel.className = "remote-panel";
  panel.dataset.fair = "waiting";
  panel.setAttribute("aria-live", "polite");
  panel.innerHTML = `<p data-fair-words></p><p data-fair-who></p>
    <button type="button" class="btn" data-fair-replay hidden></button>`;
  where.append(panel);
  let said = null; // nothing yet: the host has not committed
  const word = () => {
    if (!hasWords()) return;
    panel.querySelector("[data-fair-words]").textContent = said ? t(said.id, said.params) : "";
    panel.querySelector("[data-fair-who]").textContent = t("remote.who_sees");
    panel.querySelector("[data-fair-replay]").textContent = t("remote.fair_replay");
  };
  onLanguage(word);
  word();
  const replay = /** @type {HTMLButtonElement} */ (panel.querySelector("[data-fair-replay]"));
  const show = (state, id, params = {}) => {
    panel.dataset.fair = state;
    replay.hidden = state !== "ok" && state !== "left_out";
    said = { id, params };
    word();
  };
  return {
    element: panel,
    /** The host's commitment has come (with the seat). */
    committed: () => show("committed", "remote.fair_committed"),
    /** The match was dealt while this guest was away: its seed is not in the mix. */
    late: () => show("late", "remote.fair_late"),
    /** Checks a reveal; offers the replay when it holds. */
    async revealed(reveal, mine) {
      const verdict = await checkReveal(reveal, mine);
      if (verdict === "bad_mine") return show(verdict, "remote.fair_bad_mine");
      if (verdict === "bad_commitment") return show(verdict, "remote.fair_bad_commitment");
      show(verdict, verdict === "left_out" ? "remote.fair_left_out" : "remote.fair_ok");
      replay.disabled = false;
      replay.onclick = async () => {
        replay.disabled = true;
        show("replaying", "remote.fair_replaying");
        const engine = new EngineClient();
        try {
          const checked = await engine.request("fair_check", {
            recipe: reveal.recipe, host: reveal.host, guests: reveal.guests, commitment: mine.commitment });
          show("replayed", "remote.fair_replayed", { count: checked.plays });
        } catch (error) {
          const reason = error instanceof EngineError && error.text ? say(error.text) : String(error.message);
          show("replay_bad", "remote.fair_replay_bad", { reason });
        }
      };
      return undefined;
    },
  };
}
