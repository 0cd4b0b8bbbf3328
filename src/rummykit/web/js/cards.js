// Card faces and backs, drawn as SVG by this module (no images). Notation and indices are
// the same in every language; a card's spoken name (titles, screen readers) is the reader's.
// A card is given in the engine's notation: rank A 2-9 T J Q K, then suit S C D H ("7H");
// "JK" is a joker and "JK=5S" a joker declared as 5S; Rami adds the deck copy of a
// physical card after "@" ("7H@1", "JK@2"), which does not change how it looks.

import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

// Suit shapes in a 100x100 box.
const SUIT_PATHS = {
  H: "M50 92 C 18 66, 2 46, 6 28 C 10 10, 32 4, 44 16 C 47 19, 49 23, 50 27 C 51 23, 53 19, 56 16 C 68 4, 90 10, 94 28 C 98 46, 82 66, 50 92 Z",
  D: "M50 4 C 62 22, 76 38, 90 50 C 76 62, 62 78, 50 96 C 38 78, 24 62, 10 50 C 24 38, 38 22, 50 4 Z",
  S: "M50 4 C 66 24, 94 38, 94 60 C 94 76, 78 84, 64 78 C 60 76, 56 72, 54 68 C 55 80, 60 88, 70 96 L 30 96 C 40 88, 45 80, 46 68 C 44 72, 40 76, 36 78 C 22 84, 6 76, 6 60 C 6 38, 34 24, 50 4 Z",
  C: "M50 6 C 64 6, 72 18, 70 30 C 69 36, 66 40, 63 43 C 67 41, 72 40, 76 40 C 90 40, 98 52, 96 64 C 94 76, 82 82, 71 79 C 63 77, 57 71, 54 64 C 55 78, 60 88, 70 96 L 30 96 C 40 88, 45 78, 46 64 C 43 71, 37 77, 29 79 C 18 82, 6 76, 4 64 C 2 52, 10 40, 24 40 C 28 40, 33 41, 37 43 C 34 40, 31 36, 30 30 C 28 18, 36 6, 50 6 Z",
};

export const RANK_ORDER = "A23456789TJQK";
export const SUIT_ORDER = "SCDH";

// Pip centres for 2-10 (x, y, upside down?) in a 100x140 card.
const PIPS = {
  2: [[50, 30], [50, 110, 1]],
  3: [[50, 30], [50, 70], [50, 110, 1]],
  4: [[32, 30], [68, 30], [32, 110, 1], [68, 110, 1]],
  5: [[32, 30], [68, 30], [50, 70], [32, 110, 1], [68, 110, 1]],
  6: [[32, 30], [68, 30], [32, 70], [68, 70], [32, 110, 1], [68, 110, 1]],
  7: [[32, 30], [68, 30], [50, 50], [32, 70], [68, 70], [32, 110, 1], [68, 110, 1]],
  8: [[32, 30], [68, 30], [50, 50], [32, 70], [68, 70], [50, 90, 1], [32, 110, 1], [68, 110, 1]],
  9: [[32, 30], [68, 30], [32, 56], [68, 56], [50, 70], [32, 84, 1], [68, 84, 1], [32, 110, 1], [68, 110, 1]],
  T: [[32, 30], [68, 30], [50, 43], [32, 56], [68, 56], [32, 84, 1], [68, 84, 1], [50, 97, 1], [32, 110, 1], [68, 110, 1]],
};

/** The face a token shows: the copy after "@" dropped ("7H@1" -> "7H"). */
export function faceOf(card) { const at = card.indexOf("@"); return at < 0 ? card : card.slice(0, at); }
export function isJoker(card) { return faceOf(card).startsWith("JK"); }
/** The card a declared joker stands for ("JK=5S" -> "5S"), else null. */
export function declaredOf(card) { const face = faceOf(card); return face.startsWith("JK=") ? face.slice(3) : null; }
export function rankOf(card) { const face = faceOf(card); return isJoker(face) ? "JK" : face.slice(0, -1); }
export function suitOf(card) { const face = faceOf(card); return isJoker(face) ? "" : face.slice(-1); }
export function rankIndex(card) { return isJoker(card) ? 13 : RANK_ORDER.indexOf(rankOf(card)); }
export function suitIndex(card) { return isJoker(card) ? 4 : SUIT_ORDER.indexOf(suitOf(card)); }
export function isRed(card) { const s = suitOf(card); return s === "H" || s === "D"; }

/** A rank's name ("7" -> "seven") and a suit's ("H" -> "hearts") in the reader's language. */
export function rankName(rank) { return t(`card.rank.${rank}`); }
export function suitName(suit) { return t(`card.suit.${suit}`); }

/** "7H" -> "seven of hearts", "JK=5S" -> "joker as five of spades" (screen readers, titles). */
export function cardName(card) {
  if (isJoker(card)) { const d = declaredOf(card); return d ? t("card.joker_as", { card: cardName(d) }) : t("card.joker"); }
  return t("card.name", { rank: rankName(rankOf(card)), suit: suitName(suitOf(card)) });
}

/** Cards ordered by suit then rank, or by rank then suit. */
export function sortCards(cards, by) {
  const key = by === "rank"
    ? (c) => rankIndex(c) * 4 + suitIndex(c)
    : (c) => suitIndex(c) * 13 + rankIndex(c);
  return [...cards].sort((a, b) => key(a) - key(b));
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

function suitShape(parent, suit, cx, cy, size, flip = false) {
  const s = size / 100;
  const rotate = flip ? ` rotate(180 ${cx} ${cy})` : "";
  el("path", {
    d: SUIT_PATHS[suit],
    transform: `${rotate} translate(${cx - size / 2} ${cy - size / 2}) scale(${s})`.trim(),
  }, parent);
}

function rankLabel(rank) { return rank === "T" ? "10" : rank; }

/** A corner index of `face` (rank over suit) drawn into `parent`. */
function cornerIndex(parent, face) {
  const rank = rankOf(face);
  const text = el("text", { x: 11, y: 25, "text-anchor": "middle", class: rank === "T" ? "index ten" : "index" }, parent);
  text.textContent = rankLabel(rank);
  suitShape(parent, suitOf(face), 11, 36, 14);
}

/** An empty face: the <svg>, its title (the card's name) and its paper. */
function blankFace(card, kind) {
  const svg = el("svg", { viewBox: "0 0 100 140", class: `card-svg ${kind}`, role: "img" });
  const title = el("title", {}, svg);
  title.textContent = cardName(card);
  el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, class: "face-bg" }, svg);
  return svg;
}

function jokerFace(card) {
  const declared = declaredOf(card);
  const svg = blankFace(card, "joker");
  const ink = el("g", { class: "joker-ink" }, svg);
  for (const flip of [false, true]) {
    const g = el("g", flip ? { transform: "rotate(180 50 70)" } : {}, ink);
    if (declared) {
      // The corner shows the card the joker stands for, so a fanned run stays readable.
      cornerIndex(el("g", { class: isRed(declared) ? "red-ink" : "black-ink" }, g), declared);
      const star = el("text", { x: 11, y: 56, "text-anchor": "middle", class: "index joker-index small-star" }, g);
      star.textContent = "★";
    } else {
      const text = el("text", { x: 11, y: 24, "text-anchor": "middle", class: "index joker-index" }, g);
      text.textContent = "★";
    }
  }
  // A jester's star burst in the middle.
  const points = [];
  for (let i = 0; i < 16; i += 1) {
    const r = i % 2 ? 12 : 30;
    const a = (Math.PI * i) / 8 - Math.PI / 2;
    points.push(`${50 + r * Math.cos(a)},${66 + r * Math.sin(a)}`);
  }
  el("polygon", { points: points.join(" "), class: "joker-star" }, svg);
  const word = el("text", { x: 50, y: 118, "text-anchor": "middle", class: "joker-word" }, svg);
  word.textContent = t("card.joker_face");
  if (declared) {
    // The card the joker stands for, as a badge (the engine's declaration).
    const badge = el("g", { class: `joker-badge ${isRed(declared) ? "red" : "black"}` }, svg);
    el("rect", { x: 26, y: 48, width: 48, height: 36, rx: 6, class: "badge-bg" }, badge);
    const label = el("text", { x: 50, y: 74, "text-anchor": "middle", class: "badge-text" }, badge);
    label.textContent = `${rankLabel(rankOf(declared))}${{ S: "♠", C: "♣", D: "♦", H: "♥" }[suitOf(declared)]}`;
  }
  return svg;
}

/** An <svg> card face for `card` ("QS", "JK", "JK=5S", "7H@1"). */
export function cardFace(token) {
  if (isJoker(token)) return jokerFace(token);
  const card = faceOf(token);
  const rank = rankOf(card);
  const suit = suitOf(card);
  const svg = blankFace(card, isRed(card) ? "red" : "black");
  const ink = el("g", { class: "ink" }, svg);
  // Corner indices (top left, and bottom right upside down).
  for (const flip of [false, true]) {
    cornerIndex(el("g", flip ? { transform: "rotate(180 50 70)" } : {}, ink), card);
  }
  if (PIPS[rank]) {
    for (const [x, y, flip] of PIPS[rank]) suitShape(ink, suit, x, y, 20, Boolean(flip));
  } else if (rank === "A") {
    suitShape(ink, suit, 50, 70, 48);
  } else {
    el("rect", { x: 22, y: 20, width: 56, height: 100, rx: 4, class: "court-frame" }, svg);
    const letter = el("text", { x: 50, y: 78, "text-anchor": "middle", class: "court" }, ink);
    letter.textContent = rank;
    suitShape(ink, suit, 50, 100, 22);
    suitShape(ink, suit, 50, 40, 16, true);
  }
  return svg;
}

let clipCounter = 0;

/** An <svg> card back. */
export function cardBack() {
  const svg = el("svg", { viewBox: "0 0 100 140", class: "card-svg back", role: "img" });
  const title = el("title", {}, svg);
  title.textContent = t("card.back");
  el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, class: "back-bg" }, svg);
  const clipId = `rk-back-clip-${++clipCounter}`;
  const clip = el("clipPath", { id: clipId }, el("defs", {}, svg));
  el("rect", { x: 8, y: 8, width: 84, height: 124, rx: 5 }, clip);
  const g = el("g", { class: "back-lines", "clip-path": `url(#${clipId})` }, svg);
  for (let i = -140; i < 140; i += 12) {
    el("line", { x1: 8 + i, y1: 8, x2: 8 + i + 124, y2: 132 }, g);
    el("line", { x1: 92 - i, y1: 8, x2: 92 - i - 124, y2: 132 }, g);
  }
  el("rect", { x: 8, y: 8, width: 84, height: 124, rx: 5, class: "back-frame" }, svg);
  suitShape(svg, "S", 50, 70, 22);
  return svg;
}

/** A card element (<div class="card">) holding a face (or a back when card is null). */
export function cardElement(card, { extraClass = "" } = {}) {
  const div = document.createElement("div");
  div.className = `card ${extraClass}`.trim();
  if (card) {
    div.dataset.card = card;
    div.setAttribute("aria-label", cardName(card));
    div.appendChild(cardFace(card));
  } else {
    div.classList.add("face-down");
    div.appendChild(cardBack());
  }
  return div;
}
