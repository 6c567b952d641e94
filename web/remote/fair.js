// A fair deal at a remote table (docs/remote.md#a-fair-deal; the engine's side: calypso_core/
// table/fair.py). The host draws a secret seed and sends each guest its commitment (SHA-256,
// hex) with the seat; only then does the guest send a seed of its own. The deal's seed mixes
// them all (the engine's fair_deal). When the match ends the host sends everyone the recipe and
// the seeds ({t: "reveal"}); a guest's page checks at once that the host's seed is the one it
// committed to, that its own seed is in the mix, and that the recipe is the game it saw: every
// card it saw played, in order, and its own hand of every deal (checkSeen); on request it loads
// the engine to replay the match from the seeds, the hands it was dealt included (fair_check).
// A host that lies about its seed, stacks the deck it deals or makes up the game it reveals is
// caught; what it saw meanwhile is not hidden from it (it runs the game: every hand is on its
// device). No DOM here: the guest's client puts the verdicts in the page's state.

import { EngineClient } from "../engine-client.js";
import { newToken } from "./wire.js";

const SEED = /^[0-9a-f]{32}$/;

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
    if (typeof kept?.secret !== "string" || !SEED.test(kept.secret)) return new FairDeal();
    const fair = new FairDeal(kept.secret);
    for (const [seat, guest] of Object.entries(kept.seeds ?? {})) {
      if (/^\d$/.test(seat) && typeof guest === "string" && SEED.test(guest)) fair.take(Number(seat), guest);
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

/** What a guest can check of a reveal's seeds without the engine: "ok", "bad_commitment" (the
 * host's seed is not the one it committed to), "bad_mine" (this guest's seed is not in it, or
 * one it never sent is) or "left_out" (seed null: the match was dealt while this guest was
 * away, and the reveal says so). */
export async function checkReveal(reveal, { commitment, seat, seed }) {
  if (typeof reveal.host !== "string" || (await commitmentOf(reveal.host)) !== commitment) return "bad_commitment";
  const revealed = reveal.guests?.[String(seat)];
  if (seed === null) return revealed === undefined ? "left_out" : "bad_mine";
  if (revealed !== seed) return "bad_mine";
  return "ok";
}

/**
 * What a guest saw of a match, from every view the host sent it: by game (view.match.game),
 * each card seen played at its place in the game ({card, seat}, the seat from the trick's
 * leader), and this seat's hand at the start of each deal it saw begin (its whole hand, before
 * it played a card of that deal). hello gives the shape of a game: its deals, their tricks and
 * the seats.
 * @returns {{plays: Map<number, {card: string, seat: number}>, hands: Map<number, string[]>}[]}
 */
export function seenOf(views, seat, hello) {
  const seats = hello.seats.length;
  const perDeal = hello.deals.tricks * seats;
  const games = [];
  const place = (game, deal, index, leader, cards) => cards.forEach((card, i) => {
    game.plays.set(deal * perDeal + index * seats + i, { card, seat: (leader + i) % seats });
  });
  for (const view of views) {
    const game = games[view.match.game] ??= { plays: new Map(), hands: new Map() };
    view.log?.tricks?.forEach((trick, index) => place(game, view.log.deal, index, trick.leader, trick.cards));
    if (view.trick?.cards?.length) place(game, view.deal, view.trick.index, view.trick.leader, view.trick.cards);
    const deal = Math.floor(view.plays / perDeal);
    if (view.hand?.length === hello.deals.tricks && !game.hands.has(deal)) { // before its first card
      game.hands.set(deal, [...view.hand]);
    }
  }
  return games;
}

/** The first place where the record of a match disagrees with what a guest saw (seenOf):
 * {game, deal, trick, seen_card, record_card} (numbers from 1) for a card seen played that the
 * record has otherwise (record_card null: no card there, a record cut short); {game, deal,
 * hand} for a hand the guest was shown of which a card is not played in that deal of the
 * record (a deal the record has whole); null when every card seen and every hand agree.
 * The engine's fair_check checks the rest: that the record is the game the seeds deal. */
export function checkSeen(recipe, seen, hello) {
  const perDeal = hello.deals.tricks * hello.seats.length;
  const games = [...(Array.isArray(recipe.history) ? recipe.history : []), recipe.record];
  for (const [g, game] of seen.entries()) {
    if (!game) continue; // a game of the match this page saw nothing of
    const plays = Array.isArray(games[g]?.plays) ? games[g].plays : [];
    for (const [at, { card }] of [...game.plays].sort((a, b) => a[0] - b[0])) {
      if (plays[at] !== card) {
        return { game: g + 1, deal: Math.floor(at / perDeal) + 1, trick: Math.floor((at % perDeal) / hello.seats.length) + 1,
          seen_card: card, record_card: typeof plays[at] === "string" ? plays[at] : null };
      }
    }
    for (const [deal, hand] of game.hands) {
      const left = plays.slice(deal * perDeal, (deal + 1) * perDeal);
      if (left.length < perDeal) continue; // a deal the record has not finished: its cards seen, above
      for (const card of hand) {
        const i = left.indexOf(card);
        if (i < 0) return { game: g + 1, deal: deal + 1, hand };
        left.splice(i, 1);
      }
    }
  }
  return null;
}

/** The hands a guest saw, as fair_check takes them: [[its hand at each deal's start, or null]
 * by game]. */
export function seenHands(seen, hello) {
  return Array.from(seen, (game) => Array.from({ length: hello.deals.count }, (_, deal) => game?.hands.get(deal) ?? null));
}

/** Replays the match with this tab's own engine (loaded only now): the seeds revealed deal
 * it, every card of it was legal, and this seat was dealt the hands it saw. Resolves with the
 * engine's {seed, plays}, or rejects with its EngineError (its text says what does not hold). */
export async function replayWithEngine(reveal, { commitment, seat }, hands) {
  return new EngineClient().request("fair_check", { recipe: reveal.recipe, host: reveal.host,
    guests: reveal.guests, commitment, seen: { seat, hands } });
}
